import { z } from 'zod';
import { planSchema } from '../remedies/plan.js';

/** The key that, when present, tells the worker a remedy was cancelled (the bot sets it). */
export function cancelKey(prefix: string, requestId: string): string {
  return `${prefix}:cancel:${requestId}`;
}

/** The queue of one cluster: adding a cluster is adding a worker on its queue. */
export function clusterQueueName(cluster: string): string {
  return `cluster-${cluster}`;
}

/** Data of a read-only plan job: which stage of which entry, for whom. No secrets, no Slack payloads. */
export const planJobSchema = z.object({
  requestId: z.string().regex(/^[a-z0-9]+$/),
  entryId: z.string(),
  stageId: z.string(),
  cluster: z.string(),
  /** Who asked (a Slack user id or `terminal:<user>`), for the audit trail. */
  requestedBy: z.string(),
  /** The entry's parameters, checked and with the guide's defaults filled in; never a secret. */
  params: z.record(z.string(), z.string()).default({}),
});
export type PlanJobData = z.infer<typeof planJobSchema>;

/** Data of a run job: exactly the approved plan, from which step on, and who approved it. */
export const runJobSchema = z.object({
  plan: planSchema,
  fromStep: z.number().int().min(0),
  approvedBy: z.string(),
  /** A one-time public key: secrets a step reveals are sealed to it, so Redis only ever holds ciphertext. */
  sealTo: z.string().optional(),
});
export type RunJobData = z.infer<typeof runJobSchema>;

/** A plan job's id; `seq` counts the plans made for the stage (a replan after a change is a new one). */
export function planJobId(requestId: string, stageId: string, seq: number): string {
  return `plan-${requestId}-${stageId}-p${seq}`;
}

/**
 * A run job's id derives from the approval (request, stage, plan hash) and the step it starts at, so
 * a second click, a retry or a second bot replica enqueues nothing new.
 */
export function runJobId(requestId: string, stageId: string, planHash: string, fromStep: number): string {
  return `run-${requestId}-${stageId}-${planHash.slice(0, 16)}-s${fromStep}`;
}

/** What a job id says about itself, for routing QueueEvents back to the request. */
export function parseJobId(jobId: string): { kind: 'plan' | 'run'; requestId: string; stageId: string } | undefined {
  const m = /^(plan|run)-([a-z0-9]+)-([a-z0-9-]+?)-(?:p\d+|[0-9a-f]{16}-s\d+)$/.exec(jobId);
  if (!m) return undefined;
  return { kind: m[1] as 'plan' | 'run', requestId: m[2]!, stageId: m[3]! };
}
