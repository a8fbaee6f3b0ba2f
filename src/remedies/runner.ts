import { findEntry, findStage } from '../catalogue/index.js';
import { hashSteps, pinsOf, type Plan } from './plan.js';
import { planSteps } from './planner.js';
import { runStep, type StepContext, type StepResult } from './steps/index.js';

/** One step's progress, as reported to the thread. */
export interface StepProgress {
  readonly index: number;
  /** `looking`: every step finished, and the entry's detector is looking at the symptom (the settle window). */
  readonly status: 'started' | 'looking' | StepResult['status'];
  readonly message: string;
  readonly details?: readonly string[];
  /** A secret sealed for the person who asked (never plain text). */
  readonly sealed?: string;
}

/** How a run (or one continuation of it) ended. */
export type RunOutcome =
  | { readonly status: 'completed'; readonly message: string }
  | { readonly status: 'waiting'; readonly resumeFrom: number; readonly seconds: number; readonly message: string }
  | { readonly status: 'failed'; readonly step: number; readonly message: string; readonly details?: readonly string[] }
  | { readonly status: 'changed'; readonly message: string; readonly details: readonly string[] }
  | { readonly status: 'cancelled'; readonly step: number; readonly message: string };

/**
 * Where each step of a run stands, kept outside the worker (in Redis) so that a worker that dies
 * mid-step is followed by one that knows what was done: done steps are never run again.
 */
export interface StepLedger {
  state(index: number): Promise<'started' | 'done' | undefined>;
  started(index: number): Promise<void>;
  done(index: number): Promise<void>;
}

/** What a run reports to and asks of its surroundings. */
export interface RunHooks {
  report(p: StepProgress): Promise<void>;
  ledger?: StepLedger;
  /** True when someone cancelled the remedy; checked before every step. */
  cancelled?(): Promise<boolean>;
}

/**
 * Plans the stage again and compares what it pins with the approved plan; lists what differs
 * (objects gone, new, or changed in a pinned field). Empty when the plan still holds. When what a
 * step reads did not answer, nothing can be compared: `unreachable` says what could not be reached.
 */
export async function checkPlanStillHolds(ctx: StepContext, plan: Plan): Promise<string[] | { unreachable: string }> {
  const entry = findEntry(plan.entryId);
  const stage = entry && findStage(entry, plan.stageId);
  if (!stage) return [`this worker does not know ${plan.entryId}/${plan.stageId}`];
  const now = await planSteps({ ...ctx, params: plan.params }, stage);
  if (now.unreachable) return { unreachable: now.unreachable };
  // A stage the cluster no longer allows (its version moved out of a gate) has changed whatever its pins say:
  // a read-only gate pins nothing.
  if (now.blocked) return [now.blocked];
  if (hashSteps(now.steps) === plan.hash) return [];
  const drift: string[] = [];
  for (const [i, was] of plan.steps.entries()) {
    const is = now.steps[i];
    const before = new Set(pinsOf(was.targets));
    const after = new Set(pinsOf(is?.targets ?? []));
    for (const p of before) if (!after.has(p)) drift.push(`step ${i + 1}: ${p.split(' ').slice(0, 2).join(' ')} (as planned: ${p.split(' ').slice(2).join(' ').slice(0, 40)}) is gone or changed`);
    for (const p of after) if (!before.has(p)) drift.push(`step ${i + 1}: ${p.split(' ').slice(0, 2).join(' ')} is new or changed (now: ${p.split(' ').slice(2).join(' ').slice(0, 40)})`);
  }
  return drift.length > 0 ? drift : ['what the plan would change differs from the cluster now'];
}

/**
 * Runs a plan from one step on. A wait ends this run with `waiting`: the caller schedules the rest
 * as a delayed job. The first run checks first that the cluster still matches the plan. A resumed run
 * (the ledger shows steps already started) skips the steps it finished, and runs an interrupted step
 * again: every step kind checks the cluster before it touches anything (uid preconditions, pins), so
 * what was already done is found done, never done twice.
 */
export async function runPlan(ctx: StepContext, plan: Plan, fromStep: number, hooks: RunHooks | ((p: StepProgress) => Promise<void>)): Promise<RunOutcome> {
  const { report, ledger, cancelled } = typeof hooks === 'function' ? { report: hooks, ledger: undefined, cancelled: undefined } : hooks;
  const withParams = { ...ctx, params: plan.params };
  if (plan.blocked) return { status: 'failed', step: 0, message: plan.blocked };
  const states = await Promise.all(plan.steps.map((s) => ledger?.state(s.index)));
  const resumed = states.slice(fromStep).some((st) => st !== undefined);
  if (fromStep === 0 && !resumed) {
    const drift = await checkPlanStillHolds(withParams, plan);
    if ('unreachable' in drift) return { status: 'failed', step: 0, message: `${drift.unreachable} Nothing was done.` };
    if (drift.length > 0) return { status: 'changed', message: 'The cluster changed since the plan was approved; nothing was done. Plan again.', details: drift };
  }
  for (const step of plan.steps.slice(fromStep)) {
    if (await cancelled?.()) return { status: 'cancelled', step: step.index, message: `Cancelled before step ${step.index + 1}; the steps before it stay done.` };
    if (states[step.index] === 'done') {
      await report({ index: step.index, status: 'skipped', message: `${step.does}: already done before the worker restarted.` });
      continue;
    }
    await ledger?.started(step.index);
    await report({ index: step.index, status: 'started', message: step.does });
    const result = await runStep(withParams, step);
    await report({ index: step.index, ...result, ...('details' in result && result.details ? { details: result.details } : {}) });
    switch (result.status) {
      case 'waiting':
        // The wait is marked done by the worker once the continuation is queued.
        return { status: 'waiting', resumeFrom: step.index + 1, seconds: result.seconds, message: result.message };
      case 'failed':
        return { status: 'failed', step: step.index, message: result.message, ...(result.details ? { details: result.details } : {}) };
      case 'changed':
        return { status: 'changed', message: `${result.message} Plan again.`, details: result.details ?? [] };
      default:
        await ledger?.done(step.index);
        break;
    }
  }
  return { status: 'completed', message: 'All steps done.' };
}
