import type { CatalogueEntry, Stage } from '../catalogue/model.js';
import { stageApproval } from '../catalogue/model.js';
import { hashSteps, type Plan, type PlannedStep } from './plan.js';
import { planStep, type StepContext } from './steps/index.js';

/** Identifies what is being planned. */
export interface PlanRequest {
  readonly requestId: string;
  readonly cluster: string;
  readonly entry: CatalogueEntry;
  readonly stage: Stage;
}

/** Resolves every step of a stage against the cluster, read-only, and pins the result with a hash. */
export async function planStage(ctx: StepContext, req: PlanRequest): Promise<Plan> {
  const steps: PlannedStep[] = [];
  const warnings: string[] = [];
  for (const [index, step] of req.stage.steps.entries()) {
    const r = await planStep(ctx, step, index);
    steps.push(r.planned);
    warnings.push(...r.warnings);
  }
  return {
    requestId: req.requestId,
    entryId: req.entry.id,
    stageId: req.stage.id,
    cluster: req.cluster,
    plannedAt: ctx.now().toISOString(),
    approval: stageApproval(req.stage),
    steps,
    warnings,
    hash: hashSteps(steps),
  };
}
