import { approvalOf, type ManualStep } from '../../catalogue/model.js';
import type { PlannedStep } from '../plan.js';
import type { StepResult } from './context.js';

/** A person's action: planned as its checklist, nothing automated. */
export function planManual(step: ManualStep, index: number): PlannedStep {
  return { index, kind: 'manual', does: step.does, risk: step.risk, approval: approvalOf(step), items: [...step.items] };
}

/** Hands the checklist to the people in the thread. */
export function runManual(step: Extract<PlannedStep, { kind: 'manual' }>): StepResult {
  return { status: 'done', message: `Your turn: ${step.does}.`, details: step.items };
}
