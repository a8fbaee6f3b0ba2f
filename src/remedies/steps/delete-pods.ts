import { z } from 'zod';
import { ClusterError } from '../../cluster/errors.js';
import type { PodSummary } from '../../cluster/gateway.js';
import { targetSchema, type Target } from '../plan.js';
import type { StepContext } from './context.js';
import { defineStep } from './kind.js';
import { labelName, namespaceName, stepBase, type Permission } from './step.js';
import { pollFor } from './support.js';

/** A platform name that is one pod, or a list of pods (the message brokers). */
const podName = z.enum(['gitSensorPod', 'databasePod', 'brokerPods']);

/** Pods chosen by label selector, by name, or by state (crash-looping), in one of the platform's namespaces. */
const podTarget = z.discriminatedUnion('by', [
  z.strictObject({ by: z.literal('label'), namespace: namespaceName, label: labelName }),
  z.strictObject({ by: z.literal('name'), namespace: namespaceName, pod: podName }),
  z.strictObject({ by: z.literal('crash-looping'), namespace: namespaceName }),
]);
export type PodTarget = z.infer<typeof podTarget>;

/** Delete pods so that their controller recreates them; verified by replacements Ready with new uids. */
const deletePodsStep = z.strictObject({
  ...stepBase,
  kind: z.literal('deletePods'),
  // Deleting a pod is never read-only: at least a restart, which an approver sees.
  risk: z.enum(['restart', 'destructive']),
  targets: z.array(podTarget).min(1),
  /** How long the replacements may take to become Ready before the step is reported failed. */
  verifyWithinSeconds: z.number().positive(),
});
export type DeletePodsStep = z.infer<typeof deletePodsStep>;

/** Pods of one selector, one name, or the crash-looping pods of a namespace, as planned. */
const groupSchema = z.object({
  namespace: z.string(),
  selector: z.string().optional(),
  name: z.string().optional(),
  crashLooping: z.boolean().optional(),
  pods: z.array(targetSchema),
  /** Pods already being deleted when planned (Terminating): never targets; a group by name waits for their replacement. */
  terminating: z.array(targetSchema).optional(),
});
type PodGroup = z.infer<typeof groupSchema>;
const schema = z.object({ groups: z.array(groupSchema), verifyWithinSeconds: z.number().positive() });

/** Pods that keep failing: a container waiting in a back-off. */
const failing = (p: PodSummary) => p.waiting !== undefined && /BackOff|ErrImagePull|CreateContainerError/.test(p.waiting);

function describe(p: PodSummary): Target {
  const state = `${p.terminating ? 'Terminating, ' : ''}${p.phase}${p.waiting ? ` (${p.waiting})` : ''}, ${p.ready ? 'Ready' : 'not Ready'}${p.owner ? `, owned by a ${p.owner}` : ''}`;
  return { kind: 'Pod', namespace: p.namespace, name: p.name, uid: p.uid, state };
}

/**
 * The pods to delete and those already Terminating (an earlier deletion still under way). A Terminating pod
 * is never a target: deleting it again changes nothing, and its ReplicaSet has already made its replacement,
 * which a plan counting it would delete too and then wait for one Ready pod too many.
 */
function split(pods: readonly PodSummary[]): Pick<PodGroup, 'pods' | 'terminating'> {
  const terminating = pods.filter((p) => p.terminating).map(describe);
  return { pods: pods.filter((p) => !p.terminating).map(describe), ...(terminating.length > 0 ? { terminating } : {}) };
}

async function resolve(ctx: StepContext, target: PodTarget, exclude: ReadonlySet<string>): Promise<PodGroup[]> {
  const namespace = ctx.names[target.namespace];
  if (target.by === 'label') {
    const selector = ctx.names[target.label];
    return [{ namespace, selector, ...split(await ctx.gateway.listPods(namespace, selector)) }];
  }
  if (target.by === 'crash-looping') {
    const pods = (await ctx.gateway.listPods(namespace)).filter((p) => failing(p) && !p.terminating && !exclude.has(p.name));
    return [{ namespace, crashLooping: true, pods: pods.map(describe) }];
  }
  const value = ctx.names[target.pod];
  const groups: PodGroup[] = [];
  for (const name of Array.isArray(value) ? value : [value]) {
    const pod = await ctx.gateway.getPod(namespace, name);
    groups.push({ namespace, name, ...split(pod ? [pod] : []) });
  }
  return groups;
}

/** Names of the pods that earlier deletePods steps of the stage target by name, in the namespaces this step looks at. */
function namedEarlier(ctx: StepContext, targets: readonly PodTarget[]): string[] {
  const crashLooping = targets.some((t) => t.by === 'crash-looping');
  if (!crashLooping) return [];
  return (ctx.earlier ?? []).flatMap((s) =>
    deletePods.is(s)
      ? s.targets.flatMap((t) => {
          if (t.by !== 'name') return [];
          const value = ctx.names[t.pod];
          return Array.isArray(value) ? value : [value];
        })
      : [],
  );
}

function groupLines(g: PodGroup): string[] {
  const what = g.selector ? `pods with \`${g.selector}\` in \`${g.namespace}\`` : g.crashLooping ? `crash-looping pods in \`${g.namespace}\`` : `pod \`${g.namespace}/${g.name}\``;
  const already = (g.terminating ?? []).map(
    (p) => `Pod \`${p.namespace}/${p.name}\` is already Terminating (deleted earlier): not deleted again${g.name ? '; the run waits for its replacement' : ''}`,
  );
  if (g.pods.length === 0 && already.length === 0) return [`${what}: none found, nothing to delete`];
  return [...g.pods.map((p) => `delete Pod \`${p.namespace}/${p.name}\` (uid \`${p.uid.slice(0, 8)}\`, ${p.state})`), ...already];
}

/** A group by name needs its pod back whether the run or an earlier deletion removes it; a group by label, one per pod the run deletes. */
const awaitedOf = (g: PodGroup) => (g.name ? [...g.pods, ...(g.terminating ?? [])] : g.pods);

/**
 * Ready replacements with new uids, per group; crash-looping groups only need the old pods gone. A pod that
 * is Terminating never counts, Ready or not: it is on its way out.
 */
async function replacements(ctx: StepContext, groups: readonly PodGroup[]): Promise<{ pending: string[]; fresh: PodSummary[] }> {
  const pending: string[] = [];
  const fresh: PodSummary[] = [];
  for (const g of groups) {
    const awaited = awaitedOf(g);
    if (awaited.length === 0) continue;
    const old = new Set([...g.pods, ...(g.terminating ?? [])].map((p) => p.uid));
    if (g.crashLooping) {
      // Their replacements may carry other names (a Deployment's pods) and are not this step's to wait for:
      // done once the crash-looping pods themselves are gone.
      const still = (await Promise.all(g.pods.map((p) => ctx.gateway.getPod(p.namespace, p.name)))).filter((p) => p !== undefined && old.has(p.uid));
      if (still.length > 0) pending.push(still.map((p) => p!.name).join(', '));
      continue;
    }
    const now = g.selector
      ? await ctx.gateway.listPods(g.namespace, g.selector)
      : g.name
        ? [await ctx.gateway.getPod(g.namespace, g.name)].filter((p): p is PodSummary => p !== undefined)
        : (await Promise.all(g.pods.map((p) => ctx.gateway.getPod(p.namespace, p.name)))).filter((p): p is PodSummary => p !== undefined);
    const ready = now.filter((p) => !old.has(p.uid) && p.ready && !p.terminating);
    fresh.push(...ready);
    if (ready.length < awaited.length) pending.push(g.selector ? `${awaited.length - ready.length} pod(s) with ${g.selector}` : g.name ?? awaited.map((p) => p.name).join(', '));
  }
  return { pending, fresh };
}

/**
 * Delete pods so that their controllers recreate them. The plan pins each pod by uid; the run deletes
 * with a uid precondition, then verifies that Ready replacements with new uids came up.
 */
export const deletePods = defineStep({
  kind: 'deletePods',
  step: deletePodsStep,
  data: schema,
  permissions(step) {
    return step.targets.map(
      (t): Permission => ({ apiGroup: '', resource: 'pods', verbs: t.by === 'name' ? ['get', 'delete'] : ['get', 'list', 'delete'], scope: t.namespace }),
    );
  },
  parameters: () => [],
  async plan(ctx, step) {
    const groups: PodGroup[] = [];
    // Pods an earlier step of the stage deletes by name (entry 9: the database pod) are that step's:
    // the crash-looping group leaves them out, so they are not deleted twice (or their fresh replacement once).
    const named = new Set<string>(namedEarlier(ctx, step.targets));
    for (const t of step.targets) {
      const resolved = await resolve(ctx, t, named);
      resolved.forEach((g) => g.pods.forEach((p) => named.add(p.name)));
      groups.push(...resolved);
    }
    const warnings = groups
      .filter((g) => g.pods.length === 0 && !g.terminating?.length && !g.crashLooping)
      .map((g) => (g.selector ? `No pod matches ${g.selector} in ${g.namespace}; nothing to restart there.` : `Pod ${g.namespace}/${g.name} does not exist; nothing to restart.`));
    return { lines: groups.flatMap(groupLines), targets: groups.flatMap((g) => g.pods), data: { groups, verifyWithinSeconds: step.verifyWithinSeconds }, warnings };
  },
  async run(ctx, planned) {
    const { groups, verifyWithinSeconds } = planned.data;
    const targets = groups.flatMap((g) => g.pods);
    if (targets.length === 0 && !groups.some((g) => awaitedOf(g).length > 0)) return { status: 'skipped', message: 'No pod to delete: none matched at plan time.' };
    const details: string[] = [];
    let deleted = 0;
    for (const t of targets) {
      let r: Awaited<ReturnType<typeof ctx.gateway.deletePod>>;
      try {
        r = await ctx.gateway.deletePod(t.namespace, t.name, t.uid);
      } catch (err) {
        // The pods deleted before the failure are gone either way: the thread must say so, not only the call that failed.
        if (!(err instanceof ClusterError) || deleted === 0) throw err;
        return { status: 'failed', message: `Deleted ${deleted} of ${targets.length} pod(s), then: ${err.message}`, details };
      }
      if (r === 'deleted') deleted++;
      details.push(r === 'deleted' ? `deleted pod ${t.name}` : `pod ${t.name} was already gone`);
    }
    let check: Awaited<ReturnType<typeof replacements>> | undefined;
    try {
      const ready = await pollFor(ctx, verifyWithinSeconds, async () => {
        check = await replacements(ctx, groups);
        return check.pending.length === 0 ? check : undefined;
      });
      if (ready) {
        details.push(...ready.fresh.map((p) => `replacement ${p.name} Ready (new uid ${p.uid.slice(0, 8)})`));
        return { status: 'done', message: `Deleted ${targets.length} pod(s); replacements are Ready with new uids.`, details };
      }
    } catch (err) {
      // The pods are deleted either way: the thread must say so, not only the read that failed.
      if (!(err instanceof ClusterError)) throw err;
      return { status: 'failed', message: `Deleted ${targets.length} pod(s), but could not see their replacements: ${err.message}`, details };
    }
    return { status: 'failed', message: `Deleted ${targets.length} pod(s), but no Ready replacement within ${verifyWithinSeconds} s for: ${check?.pending.join(', ')}.`, details };
  },
});
