import { z } from 'zod';
import { ClusterError } from '../../cluster/errors.js';
import { applicableKinds, customKinds, type ApplicableKind, type ManifestObject } from '../../cluster/gateway.js';
import type { StepContext } from './context.js';
import { deleteFailedJobs } from './delete-failed-jobs.js';
import { incompleteJobs } from './incomplete-jobs.js';
import { defineStep } from './kind.js';
import { rolloutsAbsent } from './resource-types.js';
import { fetchManifest, manifestName, manifestUrl, type ManifestName, type RawObject } from './manifest-source.js';
import { namespaceName, stepBase, type Permission } from './step.js';
import { code } from './support.js';

/** Entries 1 and 2: apply a manifest fetched from a configured address, leaving named objects out. */
const applyManifestStep = z.strictObject({
  ...stepBase,
  kind: z.literal('applyManifest'),
  manifest: manifestName,
  namespace: namespaceName,
  /** Objects of the manifest that must not be applied, e.g. the database-migrator secret. */
  exclude: z.array(z.strictObject({ kind: z.string(), nameContains: z.string() })),
});
export type ApplyManifestStep = z.infer<typeof applyManifestStep>;

/** The rollout controller's CRDs: the only cluster-wide objects the worker may change, by name. */
const rolloutCrds = ['analysisruns.argoproj.io', 'analysistemplates.argoproj.io', 'clusteranalysistemplates.argoproj.io', 'experiments.argoproj.io', 'rollouts.argoproj.io'];

/**
 * What each manifest may bring that the worker applies. Anything else in the file (a CronJob of a
 * retired API version, RBAC objects the worker must not be able to grant) is shown and left to a person.
 */
const applies: Record<ManifestName, { kind: ApplicableKind; names?: readonly string[] }[]> = {
  migrator: [{ kind: 'Job' }],
  rollout: [{ kind: 'CustomResourceDefinition', names: rolloutCrds }],
};

const action = z.enum(['create', 'recreate', 'update', 'unchanged', 'keep']);
const schema = z.object({ url: z.string(), sha256: z.string(), namespace: z.string(), objects: z.array(z.object({ kind: z.string(), name: z.string(), action })) });
type Data = z.infer<typeof schema>;
type Action = z.infer<typeof action>;

const objectName = (o: RawObject) => (typeof o.metadata?.name === 'string' ? o.metadata.name : '');
const shown = (kind: string, namespace: string, name: string) => `${kind} ${code(applicableKinds[kind as ApplicableKind]?.namespaced === false ? name : `${namespace}/${name}`)}`;

function applicable(manifest: ManifestName, o: RawObject): o is ManifestObject {
  const rule = applies[manifest].find((a) => a.kind === o.kind);
  return rule !== undefined && applicableKinds[rule.kind].apiVersion === o.apiVersion && objectName(o) !== '' && (rule.names === undefined || rule.names.includes(objectName(o)));
}

/** Jobs the step before (deleteFailedJobs) deletes, so this step creates them again. */
async function jobsDeletedEarlier(ctx: StepContext, namespace: string): Promise<Set<string>> {
  const deletes = (ctx.earlier ?? []).some((s) => deleteFailedJobs.is(s) && ctx.names[s.namespace] === namespace);
  if (!deletes) return new Set();
  return new Set((await incompleteJobs(ctx, namespace)).filter((i) => !i.stillRunning).map((i) => i.job.name));
}

/** Decides and validates (server-side dry run) what to do with one object. */
async function decide(ctx: StepContext, obj: ManifestObject, namespace: string, recreated: Set<string>): Promise<{ action: Action; uid: string; note: string }> {
  const existing = await ctx.gateway.manifests.read(obj, namespace);
  if (!existing) {
    await ctx.gateway.manifests.create(obj, namespace, true);
    return { action: 'create', uid: 'absent', note: 'does not exist: create' };
  }
  if (obj.kind === 'Job') {
    if (recreated.has(obj.metadata.name)) return { action: 'recreate', uid: existing.uid, note: 'failed: create again once the step before has deleted it' };
    return { action: 'keep', uid: existing.uid, note: 'exists (complete or still running): left as is, a Job cannot be changed in place' };
  }
  const result = await ctx.gateway.manifests.replace(obj, namespace, existing.resourceVersion, true);
  return result.fingerprint === existing.fingerprint
    ? { action: 'unchanged', uid: existing.uid, note: 'exists and matches the manifest: unchanged' }
    : { action: 'update', uid: existing.uid, note: 'exists: update to the manifest' };
}

/** Creates one object, or replaces it at its current resourceVersion when it exists (never a Job). */
async function apply(ctx: StepContext, obj: ManifestObject, namespace: string): Promise<'created' | 'updated' | 'exists'> {
  try {
    await ctx.gateway.manifests.create(obj, namespace);
    return 'created';
  } catch (err) {
    if (!(err instanceof ClusterError && err.code === 'already-exists')) throw err;
    if (obj.kind === 'Job') return 'exists';
    const current = await ctx.gateway.manifests.read(obj, namespace);
    if (!current) throw err;
    await ctx.gateway.manifests.replace(obj, namespace, current.resourceVersion);
    return 'updated';
  }
}

/**
 * Entries 1 and 2: applies a manifest of the platform fetched from {manifest_url}, leaving out what the
 * entry excludes. The plan shows every object and what happens to it, validated by a server-side dry
 * run, and pins the fetched file's sha256: the run applies exactly that file or stops.
 */
export const applyManifest = defineStep({
  kind: 'applyManifest',
  step: applyManifestStep,
  data: schema,
  parameters: () => [],
  // The rollout manifest updates the definitions of an installed Argo Rollouts; it does not install one.
  needsType: (step) =>
    step.manifest === 'rollout'
      ? { kind: customKinds.rollout, meaning: `${rolloutsAbsent}, so there are no rollout definitions to update; this remedy applies where Argo Rollouts runs` }
      : undefined,
  permissions(step): Permission[] {
    if (step.manifest === 'migrator') {
      return [
        { apiGroup: 'batch', resource: 'jobs', verbs: ['get', 'list', 'create'], scope: step.namespace },
        { apiGroup: '', resource: 'pods', verbs: ['list'], scope: step.namespace },
      ];
    }
    return [
      // RBAC cannot limit create by name; reading and replacing are limited to the rollout CRDs.
      { apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', verbs: ['create'], scope: 'cluster' },
      { apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', verbs: ['get', 'update'], scope: 'cluster', resourceNames: rolloutCrds.map((literal) => ({ literal })) },
    ];
  },
  async plan(ctx, step) {
    const namespace = ctx.names[step.namespace];
    const url = manifestUrl(ctx.names.manifestBaseUrl, step.manifest);
    const fetched = await fetchManifest(url);
    const empty: Data = { url, sha256: '', namespace, objects: [] };
    if ('problem' in fetched) return { lines: [step.does], targets: [], data: empty, blocked: `Cannot plan the manifest: ${fetched.problem}.` };
    const recreated = await jobsDeletedEarlier(ctx, namespace);
    const lines = [`manifest ${url} (sha256 ${fetched.sha256.slice(0, 12)}…)`];
    const warnings: string[] = [];
    const objects: Data['objects'] = [];
    const targets = [];
    for (const o of fetched.objects) {
      const kind = String(o.kind ?? '?');
      const name = objectName(o);
      const excluded = step.exclude.find((x) => x.kind === kind && name.includes(x.nameContains));
      if (excluded) {
        lines.push(`leave out ${kind} ${code(name)} (the guide removes it from the manifest)`);
        continue;
      }
      if (!applicable(step.manifest, o)) {
        lines.push(`not applied: ${kind} ${code(name || '(no name)')} (${String(o.apiVersion ?? '?')})`);
        warnings.push(`The manifest also holds ${kind} ${name || '(no name)'} (${String(o.apiVersion ?? '?')}), which this remedy does not apply; apply it by hand if the cluster needs it.`);
        continue;
      }
      const d = await decide(ctx, o, namespace, recreated);
      lines.push(`${shown(o.kind, namespace, name)}: ${d.note}`);
      objects.push({ kind: o.kind, name, action: d.action });
      if (d.action === 'create' || d.action === 'recreate' || d.action === 'update') {
        const ns = applicableKinds[o.kind].namespaced ? namespace : '';
        targets.push({ kind: o.kind, namespace: ns, name, uid: d.uid, state: d.action, pin: `manifest sha256 ${fetched.sha256.slice(0, 16)}` });
      }
    }
    const data: Data = { url, sha256: fetched.sha256, namespace, objects };
    if (objects.length === 0) return { lines, targets, data, warnings, blocked: `The manifest at ${url} holds nothing this remedy applies.` };
    return { lines, targets, data, warnings };
  },
  async run(ctx, planned) {
    const { url, sha256, namespace, objects } = planned.data;
    const fetched = await fetchManifest(url);
    if ('problem' in fetched) return { status: 'failed', message: `Cannot apply the manifest: ${fetched.problem}. Nothing applied.` };
    if (fetched.sha256 !== sha256) {
      return { status: 'changed', message: `The manifest at ${url} changed since the plan (sha256 ${sha256.slice(0, 12)}… → ${fetched.sha256.slice(0, 12)}…); nothing applied.` };
    }
    const details: string[] = [];
    for (const item of objects.filter((o) => o.action === 'create' || o.action === 'recreate' || o.action === 'update')) {
      const obj = fetched.objects.find((o): o is ManifestObject => o.kind === item.kind && objectName(o) === item.name);
      if (!obj) return { status: 'failed', message: `${item.kind} ${item.name} is missing from the manifest it was planned from.`, details };
      const r = await apply(ctx, obj, namespace);
      if (r === 'exists') return { status: 'changed', message: `${item.kind} ${item.name} appeared since the plan; left as is.`, details };
      details.push(`${r} ${item.kind} ${item.name}`);
    }
    if (details.length === 0) return { status: 'skipped', message: `Everything in ${url} that this remedy applies is already in place.` };
    return { status: 'done', message: `Applied ${details.length} object(s) of ${url}.`, details };
  },
});
