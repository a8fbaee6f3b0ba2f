import type { PlannedStep } from '../plan.js';
import { allowVolumeExpansion } from './allow-volume-expansion.js';
import { annotate } from './annotate.js';
import { applyManifest } from './apply-manifest.js';
import { checkLastAppliedJson } from './check-last-applied.js';
import { checkVersion } from './check-version.js';
import type { StepContext, StepPlan, StepResult } from './context.js';
import { createBackendConfig } from './create-backend-config.js';
import { dashboardRemoveCpuFilter } from './dashboard-cpu-filter.js';
import { dashboardOrgRepair } from './dashboard-org-repair.js';
import { deleteFailedJobs } from './delete-failed-jobs.js';
import { deletePods } from './delete-pods.js';
import { dropDatabase } from './drop-database.js';
import { growClaim } from './grow-claim.js';
import type { StepKind, StepOf } from './kind.js';
import { labelForChartManager } from './label-for-chart-manager.js';
import { listPods } from './list-pods.js';
import { manual } from './manual.js';
import { patchStatefulSetImages } from './patch-statefulset-images.js';
import { removeSecretKeys } from './remove-secret-keys.js';
import { missingResourceType } from './resource-types.js';
import { revealSecret } from './reveal-secret.js';
import { approvalOf, type Permission, type StepBase } from './step.js';
import { wait } from './wait.js';

/**
 * The registry of step kinds. Adding a kind is its file (src/remedies/steps/<kind>.ts, declared with
 * defineStep) and its name here; the catalogue's Step type, the worker's RBAC and the checks of the
 * catalogue's steps follow from it. The catalogue imports only the Step type from here, so loading
 * the catalogue never loads what the steps run with.
 */
const declared = {
  listPods,
  deletePods,
  wait,
  manual,
  deleteFailedJobs,
  applyManifest,
  patchStatefulSetImages,
  allowVolumeExpansion,
  growClaim,
  removeSecretKeys,
  annotate,
  createBackendConfig,
  checkLastAppliedJson,
  checkVersion,
  revealSecret,
  dashboardOrgRepair,
  dashboardRemoveCpuFilter,
  dropDatabase,
  labelForChartManager,
};

/** One step of a remedy, of any kind the registry holds. */
export type Step = StepOf<(typeof declared)[keyof typeof declared]>;

/** Every step kind, by the name of its kind: a kind filed under another name does not compile. */
export const stepKinds: { readonly [K in Step['kind']]: StepKind<Extract<Step, { kind: K }>> } = Object.freeze(declared);

/** Whether a name (from a run job, or a definition being checked) is a kind this build knows. */
export function isStepKind(name: string): name is Step['kind'] {
  return Object.hasOwn(stepKinds, name);
}

function kindOf<K extends Step['kind']>(kind: K): StepKind<Extract<Step, { kind: K }>> {
  return stepKinds[kind];
}

/** The Kubernetes permissions a step declares; the worker's RBAC is generated from these. */
export function permissionsOf(step: Step): Permission[] {
  return kindOf(step.kind).permissions(step);
}

/** The names of the entry parameters a step reads. */
export function parametersOf(step: Step): string[] {
  return kindOf(step.kind).parameters(step);
}

/** Resolves a step for the plan. Read-only. */
export async function planStep(ctx: StepContext, step: Step, index: number): Promise<{ planned: PlannedStep } & Pick<StepPlan<unknown>, 'warnings' | 'blocked' | 'unreachable'>> {
  const kind = kindOf(step.kind);
  const p = (await missingResourceType(ctx, kind.needsType(step))) ?? (await kind.plan(ctx, step));
  return {
    planned: { index, kind: step.kind, does: step.does, risk: step.risk, approval: approvalOf(step), lines: p.lines, targets: p.targets, data: p.data },
    ...(p.warnings ? { warnings: p.warnings } : {}),
    ...(p.blocked ? { blocked: p.blocked } : {}),
    ...(p.blocked && p.unreachable ? { unreachable: true } : {}),
  };
}

/** Carries out one planned step; its kind checks the planned data against its schema first. */
export async function runStep(ctx: StepContext, planned: PlannedStep): Promise<StepResult> {
  if (!isStepKind(planned.kind)) return { status: 'failed', message: `This worker does not know steps of kind "${planned.kind}"; is it older than the bot?` };
  return kindOf(planned.kind).run(ctx, planned);
}

/** What checking the steps needs of an entry: its id, the names of its parameters, its stages' steps. */
export interface EntrySteps {
  readonly id: string;
  readonly params?: readonly { readonly name: string }[];
  readonly stages: readonly { readonly id: string; readonly steps: readonly StepBase[] }[];
}

/**
 * What is wrong with the entries' steps, as their kinds see it: a kind no file declares, a step its
 * kind's schema refuses, a parameter a step reads that its entry does not declare.
 */
export function stepProblems(entries: readonly EntrySteps[]): string[] {
  const problems: string[] = [];
  for (const e of entries) {
    const declaredParams = new Set((e.params ?? []).map((p) => p.name));
    for (const s of e.stages) {
      for (const step of s.steps) {
        const where = `${e.id}/${s.id}`;
        if (!isStepKind(step.kind)) {
          problems.push(`${where}: no step kind is named "${step.kind}"`);
          continue;
        }
        const parsed = kindOf(step.kind).step.safeParse(step);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          problems.push(`${where}: a step of kind ${step.kind} is not valid: ${issue?.path.join('.') || '(step)'}: ${issue?.message}`);
          continue;
        }
        for (const name of parametersOf(parsed.data)) {
          if (!declaredParams.has(name)) problems.push(`${where}: a step of kind ${step.kind} uses parameter ${name} that the entry does not declare`);
        }
      }
    }
  }
  return problems;
}
