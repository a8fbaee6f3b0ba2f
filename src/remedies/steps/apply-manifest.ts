import { z } from 'zod';
import { ClusterError } from '../../cluster/errors.js';
import { applicableKinds, type ApplicableKind, type ManifestObject } from '../../cluster/gateway.js';
import type { StepContext } from './context.js';
import { deleteFailedJobs } from './delete-failed-jobs.js';
import { incompleteJobs } from './incomplete-jobs.js';
import { defineStep } from './kind.js';
import { locateManifest, manifestName, relocateManifest, type LocatedManifest, type ManifestName, type RawObject } from './manifest-source.js';
import { namespaceName, stepBase, type Permission } from './step.js';
import { code } from './support.js';

/** Entries 1 and 2: apply a manifest of the installed platform version (bundled, an admin's ConfigMap or a mirror), leaving named objects out. */
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
const schema = z.object({
  manifest: manifestName,
  origin: z.enum(['bundled', 'configmap', 'mirror']),
  location: z.string(),
  version: z.string(),
  sha256: z.string(),
  namespace: z.string(),
  objects: z.array(z.object({ kind: z.string(), name: z.string(), action })),
});
type Data = z.infer<typeof schema>;
type Action = z.infer<typeof action>;

const objectName = (o: RawObject) => (typeof o.metadata?.name === 'string' ? o.metadata.name : '');
const shown = (kind: string, namespace: string, name: string) => `${kind} ${code(applicableKinds[kind as ApplicableKind]?.namespaced === false ? name : `${namespace}/${name}`)}`;

function applicable(manifest: ManifestName, o: RawObject): o is ManifestObject {
  const rule = applies[manifest].find((a) => a.kind === o.kind);
  return rule !== undefined && applicableKinds[rule.kind].apiVersion === o.apiVersion && objectName(o) !== '' && (rule.names === undefined || rule.names.includes(objectName(o)));
}

/**
 * The manifest's objects with each kind and name once: the platform's rollout.yaml defines three CRDs
 * twice, and `kubectl apply -f` leaves the last definition in place, so the last one is the one applied.
 */
function lastOfEach(objects: RawObject[]): { objects: RawObject[]; repeated: Map<string, number> } {
  const key = (o: RawObject) => `${String(o.kind)}/${objectName(o)}`;
  const counts = new Map<string, number>();
  objects.forEach((o) => counts.set(key(o), (counts.get(key(o)) ?? 0) + 1));
  const seen = new Map<string, number>();
  const kept = objects.filter((o) => {
    seen.set(key(o), (seen.get(key(o)) ?? 0) + 1);
    return seen.get(key(o)) === counts.get(key(o));
  });
  return { objects: kept, repeated: new Map([...counts].filter(([, n]) => n > 1)) };
}

/** The plan's first line: which manifest, for which version, from where, with which digest. */
function headline(manifest: ManifestName, m: LocatedManifest): string {
  const version = m.version ? ` for platform ${code(m.version)}` : '';
  return `manifest ${code(`${manifest}.yaml`)}${version}: ${m.described}; sha256 ${code(m.sha256)}`;
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
 * Entries 1 and 2: applies a manifest of the installed platform version (bundled with platform-medic,
 * or the admin's ConfigMap or mirror: manifest-source.ts), leaving out what the entry excludes. The
 * plan says which file, for which version, from where, and pins its sha256; it shows every object and
 * what happens to it, validated by a server-side dry run. The run applies exactly that file or stops.
 */
export const applyManifest = defineStep({
  kind: 'applyManifest',
  step: applyManifestStep,
  data: schema,
  parameters: () => [],
  permissions(step): Permission[] {
    // Where the manifest comes from: the admin's ConfigMap, by name, and the installer's version line.
    const source: Permission[] = [
      { apiGroup: '', resource: 'configmaps', verbs: ['get'], scope: 'platformNamespace', resourceNames: ['manifestConfigMap'] },
      { apiGroup: 'installer.devtron.ai', resource: 'installers', verbs: ['get'], scope: 'platformNamespace', resourceNames: ['installerName'] },
    ];
    if (step.manifest === 'migrator') {
      return [
        { apiGroup: 'batch', resource: 'jobs', verbs: ['get', 'list', 'create'], scope: step.namespace },
        { apiGroup: '', resource: 'pods', verbs: ['list'], scope: step.namespace },
        ...source,
      ];
    }
    return [
      ...source,
      // RBAC cannot limit create by name; reading and replacing are limited to the rollout CRDs.
      { apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', verbs: ['create'], scope: 'cluster' },
      { apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', verbs: ['get', 'update'], scope: 'cluster', resourceNames: rolloutCrds.map((literal) => ({ literal })) },
    ];
  },
  async plan(ctx, step) {
    const namespace = ctx.names[step.namespace];
    const located = await locateManifest(ctx, step.manifest);
    if ('problem' in located) {
      const empty: Data = { manifest: step.manifest, origin: 'bundled', location: '', version: '', sha256: '', namespace, objects: [] };
      return { lines: [step.does], targets: [], data: empty, blocked: `Cannot plan the manifest: ${located.problem}.` };
    }
    const { origin, location, version, sha256 } = located;
    const recreated = await jobsDeletedEarlier(ctx, namespace);
    const lines = [headline(step.manifest, located)];
    const leftToPerson: string[] = [];
    const objects: Data['objects'] = [];
    const targets = [];
    const { objects: unique, repeated } = lastOfEach(located.objects);
    for (const o of unique) {
      const kind = String(o.kind ?? '?');
      const name = objectName(o);
      const excluded = step.exclude.find((x) => x.kind === kind && name.includes(x.nameContains));
      if (excluded) {
        lines.push(`leave out ${kind} ${code(name)} (the guide removes it from the manifest)`);
        continue;
      }
      if (!applicable(step.manifest, o)) {
        lines.push(`not applied: ${kind} ${code(name || '(no name)')} (${String(o.apiVersion ?? '?')})`);
        leftToPerson.push(`${kind} ${name || '(no name)'} (${String(o.apiVersion ?? '?')})`);
        continue;
      }
      const twice = repeated.get(`${kind}/${name}`);
      if (twice) lines.push(`${kind} ${code(name)} is defined ${twice} times in the manifest: the last definition is applied, as \`kubectl apply -f\` would leave it`);
      const d = await decide(ctx, o, namespace, recreated);
      lines.push(`${shown(o.kind, namespace, name)}: ${d.note}`);
      objects.push({ kind: o.kind, name, action: d.action });
      if (d.action === 'create' || d.action === 'recreate' || d.action === 'update') {
        const ns = applicableKinds[o.kind].namespaced ? namespace : '';
        targets.push({ kind: o.kind, namespace: ns, name, uid: d.uid, state: d.action, pin: `manifest sha256 ${sha256.slice(0, 16)}` });
      }
    }
    const warnings = leftToPerson.length === 0 ? [] : [`The manifest also holds ${leftToPerson.join(', ')}, which this remedy does not apply; apply ${leftToPerson.length === 1 ? 'it' : 'them'} by hand if the cluster needs ${leftToPerson.length === 1 ? 'it' : 'them'}.`];
    const data: Data = { manifest: step.manifest, origin, location, version, sha256, namespace, objects };
    if (objects.length === 0) return { lines, targets, data, warnings, blocked: `The manifest ${location} holds nothing this remedy applies.` };
    return { lines, targets, data, warnings };
  },
  async run(ctx, planned) {
    const { manifest, sha256, namespace, objects, location } = planned.data;
    const located = await relocateManifest(ctx, manifest, planned.data);
    if ('problem' in located) return { status: 'failed', message: `Cannot apply the manifest: ${located.problem}. Nothing applied.` };
    if (located.sha256 !== sha256) {
      return { status: 'changed', message: `The manifest ${location} changed since the plan (sha256 ${sha256.slice(0, 12)}… → ${located.sha256.slice(0, 12)}…); nothing applied.` };
    }
    const unique = lastOfEach(located.objects).objects;
    const details: string[] = [];
    for (const item of objects.filter((o) => o.action === 'create' || o.action === 'recreate' || o.action === 'update')) {
      const obj = unique.find((o): o is ManifestObject => o.kind === item.kind && objectName(o) === item.name);
      if (!obj) return { status: 'failed', message: `${item.kind} ${item.name} is missing from the manifest it was planned from.`, details };
      const r = await apply(ctx, obj, namespace);
      if (r === 'exists') return { status: 'changed', message: `${item.kind} ${item.name} appeared since the plan; left as is.`, details };
      details.push(`${r} ${item.kind} ${item.name}`);
    }
    if (details.length === 0) return { status: 'skipped', message: `Everything in ${location} that this remedy applies is already in place.` };
    return { status: 'done', message: `Applied ${details.length} object(s) of ${location}.`, details };
  },
});
