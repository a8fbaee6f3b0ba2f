import { z } from 'zod';
import type { Verification } from '../doctor/verify.js';
import { planSchema } from '../remedies/plan.js';
import type { RunOutcome } from '../remedies/runner.js';

/**
 * How long finished jobs stay in a queue: the newest thousand, for a week at most (failed ones
 * longer, for looking into). Their results reach the bot through queue events, not these records.
 */
export const jobRetention = {
  removeOnComplete: { age: 7 * 24 * 3600, count: 1000 },
  removeOnFail: { age: 14 * 24 * 3600, count: 5000 },
} as const;

/** The key that, when present, tells the worker a remedy was cancelled (the bot sets it). */
export function cancelKey(prefix: string, requestId: string): string {
  return `${prefix}:cancel:${requestId}`;
}

/** The queue of one cluster: adding a cluster is adding a worker on its queue. */
export function clusterQueueName(cluster: string): string {
  return `cluster-${cluster}`;
}

/**
 * What a run job returns: the runner's outcome; a completed one carries what the entry's detector saw
 * afterwards (absent from a worker that predates the doctor, and when the look itself failed).
 */
export type RunResult = RunOutcome & { readonly verification?: Verification };

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

/** Data of a read-only doctor job: which cluster, for whom. */
export const doctorJobSchema = z.object({
  requestId: z.string().regex(/^[a-z0-9]+$/),
  cluster: z.string(),
  /** Who asked (a Slack user id or `terminal:<user>`), for the worker's log. */
  requestedBy: z.string(),
  /** Only these entries' detectors (a pasted error's candidates, a finished remedy's entry); every entry when absent. */
  entries: z.array(z.string().max(64)).min(1).max(64).optional(),
});
export type DoctorJobData = z.infer<typeof doctorJobSchema>;

/** A doctor job's id: its own prefix, so the remedies' event feed passes it by. */
export const doctorJobId = (requestId: string): string => `doctor-${requestId}`;

/** The id of one approval attempt: 16 hex digits, fresh for every plan and every "Plan again". */
export const attemptPattern = /^[0-9a-f]{16}$/;

/** A fresh attempt id. */
export function newAttemptId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Data of a run job: exactly the approved plan, from which step on, and who approved it. */
export const runJobSchema = z.object({
  plan: planSchema,
  /** The approval attempt the run carries out; its step ledger and continuations are keyed by it. Absent from runs queued by older bots. */
  attempt: z.string().regex(attemptPattern).optional(),
  fromStep: z.number().int().min(0),
  approvedBy: z.string(),
  /** A one-time public key: secrets a step reveals are sealed to it, so Redis only ever holds ciphertext. */
  sealTo: z.string().optional(),
});
export type RunJobData = z.infer<typeof runJobSchema>;

/** A plan job's id: one per approval attempt (a first plan, a plan made again, the next stage's plan). */
export function planJobId(requestId: string, stageId: string, attempt: string): string {
  return `plan-${requestId}-${stageId}-${attempt}`;
}

/**
 * A run job's id derives from the approval attempt and the step it starts at, so a second click, a
 * retry or a second bot replica enqueues nothing new, while a plan made again (even an identical one)
 * runs under its own id.
 */
export function runJobId(requestId: string, stageId: string, attempt: string, fromStep: number): string {
  return `run-${requestId}-${stageId}-${attempt}-s${fromStep}`;
}

/** What a job id says about itself, for routing QueueEvents back to the request and its attempt. */
export function parseJobId(jobId: string): { kind: 'plan' | 'run'; requestId: string; stageId: string; attempt: string } | undefined {
  const m = /^(plan|run)-([a-z0-9]+)-([a-z0-9-]+?)-([0-9a-f]{16})(-s\d+)?$/.exec(jobId);
  if (!m || (m[1] === 'run') !== (m[5] !== undefined)) return undefined;
  return { kind: m[1] as 'plan' | 'run', requestId: m[2]!, stageId: m[3]!, attempt: m[4]! };
}

/** The bot's own delayed jobs: an approval attempt that runs out, a question of the guide that does. */
export type DeadlineJobData = { readonly requestId: string; readonly stageId: string; readonly attempt: string };

/** Ids of the bot's delayed jobs, one per attempt, so each attempt gets its own deadline. */
export function deadlineJobId(kind: 'expire' | 'unanswered', d: DeadlineJobData): string {
  return `${kind}-${d.requestId}-${d.stageId}-${d.attempt}`;
}
