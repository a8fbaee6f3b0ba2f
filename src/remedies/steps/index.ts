import type { Permission, Step } from '../../catalogue/model.js';
import type { PlannedStep } from '../plan.js';
import type { StepContext, StepResult } from './context.js';
import { deletePodsPermissions, planDeletePods, runDeletePods } from './delete-pods.js';
import { listPodsPermissions, planListPods, runListPods } from './list-pods.js';
import { planManual, runManual } from './manual.js';
import { planWait, runWait } from './wait.js';

/** The Kubernetes permissions a step declares; the worker's RBAC is generated from these. */
export function permissionsOf(step: Step): Permission[] {
  switch (step.kind) {
    case 'listPods':
      return listPodsPermissions(step);
    case 'deletePods':
      return deletePodsPermissions(step);
    case 'wait':
    case 'manual':
      return [];
  }
}

/** Resolves a step for the plan. Read-only. */
export async function planStep(ctx: StepContext, step: Step, index: number): Promise<{ planned: PlannedStep; warnings: string[] }> {
  switch (step.kind) {
    case 'listPods':
      return { planned: await planListPods(ctx, step, index), warnings: [] };
    case 'deletePods':
      return planDeletePods(ctx, step, index);
    case 'wait':
      return { planned: planWait(ctx, step, index), warnings: [] };
    case 'manual':
      return { planned: planManual(step, index), warnings: [] };
  }
}

/** Carries out one planned step. */
export async function runStep(ctx: StepContext, step: PlannedStep): Promise<StepResult> {
  switch (step.kind) {
    case 'listPods':
      return runListPods(step);
    case 'deletePods':
      return runDeletePods(ctx, step);
    case 'wait':
      return runWait(step);
    case 'manual':
      return runManual(step);
  }
}

export type { StepContext, StepResult } from './context.js';
