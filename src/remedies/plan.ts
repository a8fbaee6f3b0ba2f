import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * A plan is what a read-only plan job resolved for one stage of a remedy: the exact objects each step
 * will touch. It travels in the run job's data, so it is a zod schema: the worker validates it, and it
 * never holds a secret or a Slack payload.
 */

const risk = z.enum(['read-only', 'restart', 'destructive']);
const approval = z.enum(['none', 'approver', 'second-person']);

/** One object a step will touch, pinned by uid. */
export const targetSchema = z.object({
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  /** How it looked at plan time, e.g. `Running, Ready, since 2026-11-21T10:00:00Z`. */
  state: z.string(),
});
export type Target = z.infer<typeof targetSchema>;

/** Pods of one selector (or one name) and what the plan found for it. */
export const podGroupSchema = z.object({
  namespace: z.string(),
  selector: z.string().optional(),
  name: z.string().optional(),
  pods: z.array(targetSchema),
});
export type PodGroup = z.infer<typeof podGroupSchema>;

const common = { index: z.number().int().min(0), does: z.string(), risk, approval };

export const plannedStepSchema = z.discriminatedUnion('kind', [
  z.object({ ...common, kind: z.literal('listPods'), namespace: z.string(), selector: z.string().optional(), lines: z.array(z.string()), lookFor: z.string() }),
  z.object({ ...common, kind: z.literal('deletePods'), groups: z.array(podGroupSchema), verifyWithinSeconds: z.number().positive() }),
  z.object({ ...common, kind: z.literal('wait'), seconds: z.number().min(0), guideMinutes: z.number(), reason: z.string() }),
  z.object({ ...common, kind: z.literal('manual'), items: z.array(z.string()) }),
]);
/** One step as planned: its resolved targets or observations. */
export type PlannedStep = z.infer<typeof plannedStepSchema>;

export const planSchema = z.object({
  requestId: z.string(),
  entryId: z.string(),
  stageId: z.string(),
  cluster: z.string(),
  plannedAt: z.string(),
  approval,
  steps: z.array(plannedStepSchema).min(1),
  /** Things the person approving should know: selectors matching nothing, and the like. */
  warnings: z.array(z.string()),
  /** sha256 of the objects the plan will change; the run recomputes it and stops on a difference. */
  hash: z.string(),
});
/** What a plan job resolved for one stage. */
export type Plan = z.infer<typeof planSchema>;

/** The objects a planned step changes (read-only steps change none). */
export function changedTargets(step: PlannedStep): Target[] {
  return step.kind === 'deletePods' ? step.groups.flatMap((g) => g.pods) : [];
}

/** The plan's hash: the kind, namespace, name and uid of every object it changes, in step order. */
export function hashSteps(steps: readonly PlannedStep[]): string {
  const pinned = steps.map((s) => [s.index, s.kind, changedTargets(s).map((t) => [t.kind, t.namespace, t.name, t.uid])]);
  return createHash('sha256').update(JSON.stringify(pinned)).digest('hex');
}
