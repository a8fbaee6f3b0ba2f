import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * A plan is what a read-only plan job resolved for one stage of a remedy: the exact objects each step
 * will touch. It travels in the run job's data, so it is a zod schema: the worker validates it, and it
 * never holds a secret or a Slack payload.
 */

const risk = z.enum(['read-only', 'restart', 'destructive']);
const approval = z.enum(['none', 'approver', 'second-person']);

/** One object a step will change, pinned by uid (and resourceVersion where the change is a patch). */
export const targetSchema = z.object({
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  /** How it looked at plan time, e.g. `Running, Ready`; shown, not compared. */
  state: z.string(),
  /** What must not have changed for the run to go ahead (e.g. the image a patch replaces). */
  pin: z.string().optional(),
});
export type Target = z.infer<typeof targetSchema>;

/**
 * One step as planned. Every kind shows the approver `lines` (objects, before → after) and pins the
 * objects it will change in `targets`; what the run needs beyond that is in `data`, which the step
 * kind validates with its own schema.
 */
export const plannedStepSchema = z.object({
  index: z.number().int().min(0),
  kind: z.string(),
  does: z.string(),
  risk,
  approval,
  /** What the approval card shows for the step: one line per object or change. */
  lines: z.array(z.string()),
  targets: z.array(targetSchema),
  data: z.unknown(),
});
/** One step as planned: its resolved targets, what it shows, and what its run needs. */
export type PlannedStep = z.infer<typeof plannedStepSchema>;

export const planSchema = z.object({
  requestId: z.string(),
  entryId: z.string(),
  stageId: z.string(),
  cluster: z.string(),
  plannedAt: z.string(),
  approval,
  /** Values the person gave with the fix (sizes, names); never a secret. */
  params: z.record(z.string(), z.string()).default({}),
  steps: z.array(plannedStepSchema).min(1),
  /** Things the person approving should know: selectors matching nothing, version gates, and the like. */
  warnings: z.array(z.string()),
  /** Set when the plan cannot be carried out as it stands (a version gate, a missing object); shown instead of Approve. */
  blocked: z.string().optional(),
  /** sha256 of the objects the plan will change; the run recomputes it and stops on a difference. */
  hash: z.string(),
});
/** What a plan job resolved for one stage. */
export type Plan = z.infer<typeof planSchema>;

/** The plan's hash: every pinned object and every step's data, in step order. */
export function hashSteps(steps: readonly PlannedStep[]): string {
  const pinned = steps.map((s) => [s.index, s.kind, pinsOf(s.targets), s.risk === 'read-only' ? null : s.data]);
  return createHash('sha256').update(JSON.stringify(pinned)).digest('hex');
}

/** The identity of targets that the drift check compares: kind, place, name, uid and pin. */
export function pinsOf(targets: readonly Target[]): string[] {
  return targets.map((t) => `${t.kind} ${t.namespace}/${t.name} ${t.uid}${t.pin ? ` ${t.pin}` : ''}`);
}
