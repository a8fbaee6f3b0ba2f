import { hashSteps, type Plan, type PlannedStep } from './plan.js';
import { podDrift, replanDeletePods } from './steps/delete-pods.js';
import { runStep, type StepContext, type StepResult } from './steps/index.js';

/** One step's progress, as reported to the thread. */
export interface StepProgress {
  readonly index: number;
  readonly status: 'started' | StepResult['status'];
  readonly message: string;
  readonly details?: readonly string[];
}

/** How a run (or one continuation of it) ended. */
export type RunOutcome =
  | { readonly status: 'completed'; readonly message: string }
  | { readonly status: 'waiting'; readonly resumeFrom: number; readonly seconds: number; readonly message: string }
  | { readonly status: 'failed'; readonly step: number; readonly message: string; readonly details?: readonly string[] }
  | { readonly status: 'changed'; readonly message: string; readonly details: readonly string[] };

/** Recomputes the plan's hash against the cluster as it is now; lists what differs. */
export async function checkPlanStillHolds(ctx: StepContext, plan: Plan): Promise<string[]> {
  const now: PlannedStep[] = [];
  const drift: string[] = [];
  for (const step of plan.steps) {
    if (step.kind !== 'deletePods') {
      now.push(step);
      continue;
    }
    const groups = await replanDeletePods(ctx, step);
    drift.push(...podDrift(step.groups, groups));
    now.push({ ...step, groups });
  }
  if (hashSteps(now) === plan.hash) return [];
  return drift.length > 0 ? drift : ['the planned objects differ from the cluster'];
}

/**
 * Runs a plan from one step on. A wait ends this run with `waiting`: the caller schedules the rest
 * as a delayed job. The first run checks first that the cluster still matches the plan.
 */
export async function runPlan(
  ctx: StepContext,
  plan: Plan,
  fromStep: number,
  report: (p: StepProgress) => Promise<void>,
): Promise<RunOutcome> {
  if (fromStep === 0) {
    const drift = await checkPlanStillHolds(ctx, plan);
    if (drift.length > 0) {
      return { status: 'changed', message: 'The cluster changed since the plan was approved; nothing was done. Plan again.', details: drift };
    }
  }
  for (const step of plan.steps.slice(fromStep)) {
    await report({ index: step.index, status: 'started', message: step.does });
    const result = await runStep(ctx, step);
    await report({ index: step.index, ...result, ...('details' in result && result.details ? { details: result.details } : {}) });
    switch (result.status) {
      case 'waiting':
        return { status: 'waiting', resumeFrom: step.index + 1, seconds: result.seconds, message: result.message };
      case 'failed':
        return { status: 'failed', step: step.index, message: result.message, ...(result.details ? { details: result.details } : {}) };
      case 'changed':
        return { status: 'changed', message: `${result.message} Plan again.`, details: result.details ?? [] };
      default:
        break;
    }
  }
  return { status: 'completed', message: 'All steps done.' };
}
