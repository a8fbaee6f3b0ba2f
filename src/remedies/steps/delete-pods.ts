import { approvalOf, type DeletePodsStep, type Permission, type PodTarget } from '../../catalogue/model.js';
import type { PodSummary } from '../../cluster/gateway.js';
import type { PlannedStep, PodGroup, Target } from '../plan.js';
import type { StepContext, StepResult } from './context.js';

type PlannedDelete = Extract<PlannedStep, { kind: 'deletePods' }>;

/** Permissions of deleting pods and watching their replacements come up. */
export function deletePodsPermissions(step: DeletePodsStep): Permission[] {
  return step.targets.map((t) => ({
    apiGroup: '',
    resource: 'pods',
    verbs: t.by === 'label' ? ['list', 'delete'] : ['get', 'delete'],
    scope: t.namespace,
  }));
}

function describe(p: PodSummary): Target {
  return {
    kind: 'Pod',
    namespace: p.namespace,
    name: p.name,
    uid: p.uid,
    state: `${p.phase}, ${p.ready ? 'Ready' : 'not Ready'}${p.owner ? `, owned by a ${p.owner}` : ''}`,
  };
}

/** The groups of pods one target stands for: one group per selector, or one per named pod. */
async function resolve(ctx: StepContext, target: PodTarget): Promise<PodGroup[]> {
  const namespace = ctx.names[target.namespace];
  if (target.by === 'label') {
    const selector = ctx.names[target.label];
    const pods = await ctx.gateway.listPods(namespace, selector);
    return [{ namespace, selector, pods: pods.map(describe) }];
  }
  const value = ctx.names[target.pod];
  const names = Array.isArray(value) ? value : [value];
  const groups: PodGroup[] = [];
  for (const name of names) {
    const pod = await ctx.gateway.getPod(namespace, name);
    groups.push({ namespace, name, pods: pod ? [describe(pod)] : [] });
  }
  return groups;
}

/** Resolves exactly which pods the step would delete, pinned by uid. Read-only. */
export async function planDeletePods(ctx: StepContext, step: DeletePodsStep, index: number): Promise<{ planned: PlannedStep; warnings: string[] }> {
  const groups: PodGroup[] = [];
  for (const t of step.targets) groups.push(...(await resolve(ctx, t)));
  const warnings = groups
    .filter((g) => g.pods.length === 0)
    .map((g) => (g.selector ? `No pod matches ${g.selector} in ${g.namespace}; nothing to restart there.` : `Pod ${g.namespace}/${g.name} does not exist; nothing to restart.`));
  return {
    planned: { index, kind: 'deletePods', does: step.does, risk: step.risk, approval: approvalOf(step), groups, verifyWithinSeconds: step.verifyWithinSeconds },
    warnings,
  };
}

/** Re-resolves the step's targets now, for the plan hash and for the check before touching anything. */
export async function replanDeletePods(ctx: StepContext, step: PlannedDelete): Promise<PodGroup[]> {
  const out: PodGroup[] = [];
  for (const g of step.groups) {
    if (g.selector) {
      const pods = await ctx.gateway.listPods(g.namespace, g.selector);
      out.push({ ...g, pods: pods.map(describe) });
    } else if (g.name) {
      const pod = await ctx.gateway.getPod(g.namespace, g.name);
      out.push({ ...g, pods: pod ? [describe(pod)] : [] });
    }
  }
  return out;
}

/** Differences between the pods a plan pinned and the pods there now, as sentences. */
export function podDrift(planned: readonly PodGroup[], now: readonly PodGroup[]): string[] {
  const was = new Map(planned.flatMap((g) => g.pods).map((p) => [p.uid, p]));
  const is = new Map(now.flatMap((g) => g.pods).map((p) => [p.uid, p]));
  const drift: string[] = [];
  for (const [uid, p] of was) if (!is.has(uid)) drift.push(`pod ${p.namespace}/${p.name} (uid ${uid.slice(0, 8)}) is gone`);
  for (const [uid, p] of is) if (!was.has(uid)) drift.push(`pod ${p.namespace}/${p.name} (uid ${uid.slice(0, 8)}) is new`);
  return drift;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True when every deleted pod has a Ready replacement with a new uid. */
async function replaced(ctx: StepContext, groups: readonly PodGroup[]): Promise<{ ok: boolean; pending: string[]; fresh: PodSummary[] }> {
  const pending: string[] = [];
  const fresh: PodSummary[] = [];
  for (const g of groups) {
    const old = new Set(g.pods.map((p) => p.uid));
    const candidates = g.selector
      ? await ctx.gateway.listPods(g.namespace, g.selector)
      : [await ctx.gateway.getPod(g.namespace, g.name!)].filter((p): p is PodSummary => p !== undefined);
    const ready = candidates.filter((p) => !old.has(p.uid) && p.ready);
    fresh.push(...ready);
    if (ready.length < g.pods.length) {
      pending.push(g.selector ? `${g.pods.length - ready.length} pod(s) with ${g.selector}` : `${g.name}`);
    }
  }
  return { ok: pending.length === 0, pending, fresh };
}

/**
 * Deletes exactly the planned pods (uid preconditions), then verifies that their controllers brought
 * up Ready replacements with new uids. Stops without touching anything if the pods changed since the plan.
 */
export async function runDeletePods(ctx: StepContext, step: PlannedDelete): Promise<StepResult> {
  const now = await replanDeletePods(ctx, step);
  const drift = podDrift(step.groups, now);
  if (drift.length > 0) return { status: 'changed', message: 'The pods changed since the plan; nothing was deleted.', details: drift };
  const targets = step.groups.flatMap((g) => g.pods);
  if (targets.length === 0) return { status: 'skipped', message: 'No pod to delete: none matched at plan time.' };

  const details: string[] = [];
  for (const t of targets) {
    const r = await ctx.gateway.deletePod(t.namespace, t.name, t.uid);
    details.push(r === 'deleted' ? `deleted pod ${t.name}` : `pod ${t.name} was already gone`);
  }
  const deadline = Date.now() + step.verifyWithinSeconds * 1000;
  for (;;) {
    const check = await replaced(ctx, step.groups);
    if (check.ok) {
      details.push(...check.fresh.map((p) => `replacement ${p.name} Ready (new uid ${p.uid.slice(0, 8)})`));
      return { status: 'done', message: `Deleted ${targets.length} pod(s); replacements are Ready with new uids.`, details };
    }
    if (Date.now() >= deadline) {
      return {
        status: 'failed',
        message: `Deleted ${targets.length} pod(s), but no Ready replacement within ${step.verifyWithinSeconds} s for: ${check.pending.join(', ')}.`,
        details,
      };
    }
    await sleep(ctx.pollMs);
  }
}
