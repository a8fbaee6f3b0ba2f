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
  readonly params?: Readonly<Record<string, string>>;
}

/** Plans every step of a stage against the cluster as it is now. Read-only. */
export async function planSteps(ctx: StepContext, stage: Stage): Promise<{ steps: PlannedStep[]; warnings: string[]; blocked?: string; unreachable?: string }> {
  const steps: PlannedStep[] = [];
  const warnings: string[] = [];
  let blocked: string | undefined;
  let unreachable: string | undefined;
  for (const [index, step] of stage.steps.entries()) {
    const r = await planStep({ ...ctx, earlier: stage.steps.slice(0, index) }, step, index);
    steps.push(r.planned);
    warnings.push(...(r.warnings ?? []));
    blocked ??= r.blocked;
    if (r.unreachable) unreachable ??= r.blocked;
  }
  return { steps, warnings, ...(blocked ? { blocked } : {}), ...(unreachable ? { unreachable } : {}) };
}

/** Resolves every step of a stage against the cluster, read-only, and pins the result with a hash. */
export async function planStage(ctx: StepContext, req: PlanRequest): Promise<Plan> {
  const params = { ...(req.params ?? {}) };
  const { steps, warnings, blocked } = await planSteps({ ...ctx, params }, req.stage);
  return {
    requestId: req.requestId,
    entryId: req.entry.id,
    stageId: req.stage.id,
    cluster: req.cluster,
    plannedAt: ctx.now().toISOString(),
    approval: stageApproval(req.stage),
    params,
    steps,
    warnings,
    ...(blocked ? { blocked } : {}),
    hash: hashSteps(steps),
  };
}
