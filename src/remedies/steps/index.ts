import type { Permission, Step } from '../../catalogue/model.js';
import { approvalOf } from '../../catalogue/model.js';
import type { PlannedStep } from '../plan.js';
import type { StepContext, StepKind, StepPlan, StepResult } from './context.js';
import { allowVolumeExpansion } from './allow-volume-expansion.js';
import { annotate } from './annotate.js';
import { applyManifest } from './apply-manifest.js';
import { checkLastAppliedJson } from './check-last-applied.js';
import { checkVersion } from './check-version.js';
import { createBackendConfig } from './create-backend-config.js';
import { deleteFailedJobs } from './delete-failed-jobs.js';
import { growClaim } from './grow-claim.js';
import { labelForChartManager } from './label-for-chart-manager.js';
import { patchStatefulSetImages } from './patch-statefulset-images.js';
import { removeSecretKeys } from './remove-secret-keys.js';
import { revealSecret } from './reveal-secret.js';
import { dashboardRemoveCpuFilter } from './dashboard-cpu-filter.js';
import { dashboardOrgRepair } from './dashboard-org-repair.js';
import { deletePods } from './delete-pods.js';
import { dropDatabaseStep } from './drop-database.js';
import { listPods } from './list-pods.js';
import { manual } from './manual.js';
import { wait } from './wait.js';
import { missingResourceType } from './resource-types.js';

type KindOf<K extends Step['kind']> = Extract<Step, { kind: K }>;

/** Every step kind of the catalogue, by kind. */
const kinds: { readonly [K in Step['kind']]: StepKind<KindOf<K>, unknown> } = {
  listPods: listPods as StepKind<KindOf<'listPods'>, unknown>,
  deletePods: deletePods as StepKind<KindOf<'deletePods'>, unknown>,
  wait: wait as StepKind<KindOf<'wait'>, unknown>,
  manual: manual as StepKind<KindOf<'manual'>, unknown>,
  deleteFailedJobs: deleteFailedJobs as StepKind<KindOf<'deleteFailedJobs'>, unknown>,
  applyManifest: applyManifest as StepKind<KindOf<'applyManifest'>, unknown>,
  patchStatefulSetImages: patchStatefulSetImages as StepKind<KindOf<'patchStatefulSetImages'>, unknown>,
  allowVolumeExpansion: allowVolumeExpansion as StepKind<KindOf<'allowVolumeExpansion'>, unknown>,
  growClaim: growClaim as StepKind<KindOf<'growClaim'>, unknown>,
  removeSecretKeys: removeSecretKeys as StepKind<KindOf<'removeSecretKeys'>, unknown>,
  annotate: annotate as StepKind<KindOf<'annotate'>, unknown>,
  createBackendConfig: createBackendConfig as StepKind<KindOf<'createBackendConfig'>, unknown>,
  checkLastAppliedJson: checkLastAppliedJson as StepKind<KindOf<'checkLastAppliedJson'>, unknown>,
  checkVersion: checkVersion as StepKind<KindOf<'checkVersion'>, unknown>,
  revealSecret: revealSecret as StepKind<KindOf<'revealSecret'>, unknown>,
  dashboardOrgRepair: dashboardOrgRepair as StepKind<KindOf<'dashboardOrgRepair'>, unknown>,
  dashboardRemoveCpuFilter: dashboardRemoveCpuFilter as StepKind<KindOf<'dashboardRemoveCpuFilter'>, unknown>,
  dropDatabase: dropDatabaseStep as StepKind<KindOf<'dropDatabase'>, unknown>,
  labelForChartManager: labelForChartManager as StepKind<KindOf<'labelForChartManager'>, unknown>,
};

function kindOf(step: Step): StepKind<Step, unknown> {
  return kinds[step.kind] as StepKind<Step, unknown>;
}

/** The Kubernetes permissions a step declares; the worker's RBAC is generated from these. */
export function permissionsOf(step: Step): Permission[] {
  return kindOf(step).permissions(step);
}

/** Resolves a step for the plan. Read-only. */
export async function planStep(ctx: StepContext, step: Step, index: number): Promise<{ planned: PlannedStep } & Pick<StepPlan<unknown>, 'warnings' | 'blocked' | 'unreachable'>> {
  const p = (await missingResourceType(ctx, step)) ?? (await kindOf(step).plan(ctx, step));
  return {
    planned: { index, kind: step.kind, does: step.does, risk: step.risk, approval: approvalOf(step), lines: p.lines, targets: p.targets, data: p.data },
    ...(p.warnings ? { warnings: p.warnings } : {}),
    ...(p.blocked ? { blocked: p.blocked } : {}),
    ...(p.blocked && p.unreachable ? { unreachable: true } : {}),
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
