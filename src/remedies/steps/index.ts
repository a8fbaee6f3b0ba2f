import { z } from 'zod';
import type { Permission, Step } from '../../catalogue/model.js';
import { approvalOf } from '../../catalogue/model.js';
import type { PlannedStep } from '../plan.js';
import type { StepContext, StepKind, StepPlan, StepResult } from './context.js';
import { deletePods } from './delete-pods.js';
import { listPods } from './list-pods.js';
import { manual } from './manual.js';
import { wait } from './wait.js';

type KindOf<K extends Step['kind']> = Extract<Step, { kind: K }>;

/**
 * A step kind the worker cannot carry out yet: it plans honestly as blocked (the card says so and
 * offers no Approve) and never pretends to have run.
 */
function notCarriedOutYet<K extends Step['kind']>(kind: K): StepKind<KindOf<K>, null> {
  const message = `Carrying out "${kind}" steps is not available in this version; the plan shows what the guide would do.`;
  return {
    kind: kind as KindOf<K>['kind'],
    schema: z.null(),
    permissions: () => [],
    async plan(_ctx, step) {
      return { lines: [step.does], targets: [], data: null, blocked: message };
    },
    async run() {
      return { status: 'failed', message };
    },
  };
}

/** Every step kind of the catalogue, by kind. */
const kinds: { readonly [K in Step['kind']]: StepKind<KindOf<K>, unknown> } = {
  listPods: listPods as StepKind<KindOf<'listPods'>, unknown>,
  deletePods: deletePods as StepKind<KindOf<'deletePods'>, unknown>,
  wait: wait as StepKind<KindOf<'wait'>, unknown>,
  manual: manual as StepKind<KindOf<'manual'>, unknown>,
  deleteFailedJobs: notCarriedOutYet('deleteFailedJobs'),
  applyManifest: notCarriedOutYet('applyManifest'),
  patchStatefulSetImages: notCarriedOutYet('patchStatefulSetImages'),
  allowVolumeExpansion: notCarriedOutYet('allowVolumeExpansion'),
  growClaim: notCarriedOutYet('growClaim'),
  removeSecretKeys: notCarriedOutYet('removeSecretKeys'),
  annotate: notCarriedOutYet('annotate'),
  createBackendConfig: notCarriedOutYet('createBackendConfig'),
  checkLastAppliedJson: notCarriedOutYet('checkLastAppliedJson'),
  checkVersion: notCarriedOutYet('checkVersion'),
  revealSecret: notCarriedOutYet('revealSecret'),
  dashboardOrgRepair: notCarriedOutYet('dashboardOrgRepair'),
  dashboardRemoveCpuFilter: notCarriedOutYet('dashboardRemoveCpuFilter'),
  dropDatabase: notCarriedOutYet('dropDatabase'),
  labelForChartManager: notCarriedOutYet('labelForChartManager'),
};

function kindOf(step: Step): StepKind<Step, unknown> {
  return kinds[step.kind] as StepKind<Step, unknown>;
}

/** The Kubernetes permissions a step declares; the worker's RBAC is generated from these. */
export function permissionsOf(step: Step): Permission[] {
  return kindOf(step).permissions(step);
}

/** Resolves a step for the plan. Read-only. */
export async function planStep(ctx: StepContext, step: Step, index: number): Promise<{ planned: PlannedStep } & Pick<StepPlan<unknown>, 'warnings' | 'blocked'>> {
  const p = await kindOf(step).plan(ctx, step);
  return {
    planned: { index, kind: step.kind, does: step.does, risk: step.risk, approval: approvalOf(step), lines: p.lines, targets: p.targets, data: p.data },
    ...(p.warnings ? { warnings: p.warnings } : {}),
    ...(p.blocked ? { blocked: p.blocked } : {}),
  };
}

/** Carries out one planned step, after checking its data against the kind's schema. */
export async function runStep(ctx: StepContext, planned: PlannedStep): Promise<StepResult> {
  const kind = kinds[planned.kind as Step['kind']] as StepKind<Step, unknown> | undefined;
  if (!kind) return { status: 'failed', message: `This worker does not know steps of kind "${planned.kind}"; is it older than the bot?` };
  const data = kind.schema.safeParse(planned.data);
  if (!data.success) return { status: 'failed', message: `The planned data of step ${planned.index + 1} is not valid: ${data.error.issues[0]?.message}` };
  return kind.run(ctx, { ...planned, data: data.data });
}

export type { StepContext, StepResult } from './context.js';
