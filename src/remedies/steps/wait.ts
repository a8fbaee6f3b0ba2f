import { approvalOf, type WaitStep } from '../../catalogue/model.js';
import type { PlannedStep } from '../plan.js';
import type { StepContext, StepResult } from './context.js';

/** Plans a wait: the guide's minutes, or the configured override for demos and tests. */
export function planWait(ctx: StepContext, step: WaitStep, index: number): PlannedStep {
  const seconds = ctx.waitOverrideSeconds ?? step.minutes * 60;
  return { index, kind: 'wait', does: step.does, risk: step.risk, approval: approvalOf(step), seconds, guideMinutes: step.minutes, reason: step.reason };
}

function duration(seconds: number): string {
  return seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} s`;
}

/** A wait never sleeps in the worker: it asks the runner to continue later as a delayed job. */
export function runWait(step: Extract<PlannedStep, { kind: 'wait' }>): StepResult {
  const shortened = step.seconds !== step.guideMinutes * 60 ? ` (the guide's ${step.guideMinutes} minutes, shortened by configuration)` : '';
  return { status: 'waiting', seconds: step.seconds, message: `Waiting ${duration(step.seconds)}${shortened}: ${step.reason}.` };
}
