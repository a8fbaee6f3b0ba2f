import { z } from 'zod';
import { metaResources, type MetaResource, type ObjectMetaSummary } from '../../cluster/gateway.js';
import { targetSchema } from '../plan.js';
import type { StepContext } from './context.js';
import { defineStep } from './kind.js';
import { namespaceName, stepBase, type Permission } from './step.js';
import { code, writeWithOneRetry } from './support.js';

/**
 * The kinds a platform chart installs and the worker lists; ReplicaSets, pods, claims and jobs' pods
 * belong to their controllers. Secrets are not listed: listing them is reading every Secret's values,
 * so the worker labels only the platform's named Secrets (`namedSecrets`) and says so for the rest.
 */
export const chartResources: readonly MetaResource[] = ['deployments', 'statefulsets', 'services', 'configmaps', 'serviceaccounts', 'ingresses'];

/** The Secrets of the platform the worker may read and label, by their per-cluster names. */
export const namedSecrets = ['platformSecret', 'gitopsSecret'] as const;

const managedBy = 'app.kubernetes.io/managed-by';
const releaseName = 'meta.helm.sh/release-name';
const releaseNamespace = 'meta.helm.sh/release-namespace';

/** Entry 18: label and annotate the platform namespace's resources for the chart manager. */
const labelForChartManagerStep = z.strictObject({ ...stepBase, kind: z.literal('labelForChartManager'), namespace: namespaceName });
export type LabelForChartManagerStep = z.infer<typeof labelForChartManagerStep>;

const schema = z.object({ namespace: z.string(), release: z.string(), objects: z.array(targetSchema.extend({ resource: z.string() })) });
type Data = z.infer<typeof schema>;

/**
 * Objects the chart would own: not made by a controller (owner references), and not a service-account
 * token, a Helm release record, a platform-medic backup, the default service account or the cluster's
 * root CA config map.
 */
export function chartOwned(o: ObjectMetaSummary): boolean {
  if (o.owned) return false;
  if (o.resource === 'secrets') {
    const type = o.secretType ?? 'Opaque';
    if (type === 'kubernetes.io/service-account-token' || type.startsWith('helm.sh/release')) return false;
    if (o.labels['platform-medic.dev/backup-of'] !== undefined) return false;
  }
  if (o.resource === 'serviceaccounts' && o.name === 'default') return false;
  if (o.resource === 'configmaps' && o.name === 'kube-root-ca.crt') return false;
  return true;
}

/** The three keys as they are now: what the run replaces, and what the plan pins. */
const pinOf = (o: Pick<ObjectMetaSummary, 'labels' | 'annotations'>) => [o.labels[managedBy], o.annotations[releaseName], o.annotations[releaseNamespace]].map((v) => v ?? '-').join(',');

function change(release: string, namespace: string) {
  return { labels: { [managedBy]: 'Helm' }, annotations: { [releaseName]: release, [releaseNamespace]: namespace } };
}

async function lacking(ctx: StepContext, namespace: string, release: string): Promise<{ todo: ObjectMetaSummary[]; foreign: ObjectMetaSummary[] }> {
  const todo: ObjectMetaSummary[] = [];
  const foreign: ObjectMetaSummary[] = [];
  const sort = (o: ObjectMetaSummary) => {
    const other = o.annotations[releaseName];
    if (other !== undefined && other !== release) foreign.push(o);
    else if (o.labels[managedBy] !== 'Helm' || other !== release || o.annotations[releaseNamespace] !== namespace) todo.push(o);
  };
  for (const resource of chartResources) (await ctx.gateway.metadata.list(resource, namespace)).filter(chartOwned).forEach(sort);
  const secrets: ObjectMetaSummary[] = [];
  for (const key of namedSecrets) {
    const secret = await ctx.gateway.metadata.getSecret(namespace, ctx.names[key]);
    if (secret) secrets.push(secret);
  }
  secrets.sort((a, b) => a.name.localeCompare(b.name)).forEach(sort);
  return { todo, foreign };
}

/**
 * Entry 18: Helm 3 adopts an existing object only if it carries `app.kubernetes.io/managed-by=Helm`
 * and the release's name and namespace annotations. The plan lists exactly the objects of the platform
 * namespace that lack them (grouped by kind); the run merge-patches exactly those. Objects that
 * belong to another release are left alone and named in a warning.
 */
export const labelForChartManager = defineStep({
  kind: 'labelForChartManager',
  step: labelForChartManagerStep,
  data: schema,
  parameters: () => [],
  permissions: (step) => [
    ...chartResources.map((r): Permission => ({ apiGroup: metaResources[r].apiGroup, resource: r, verbs: ['list', 'patch'], scope: step.namespace })),
    { apiGroup: '', resource: 'secrets', verbs: ['get', 'patch'], scope: step.namespace, resourceNames: [...namedSecrets] },
  ],
  async plan(ctx, step) {
    const namespace = ctx.names[step.namespace];
    const release = ctx.names.installerReleaseName;
    const { todo, foreign } = await lacking(ctx, namespace, release);
    const wanted = change(release, namespace);
    const lines = [
      `add label ${code(`${managedBy}=Helm`)} and annotations ${code(`${releaseName}=${release}`)}, ${code(`${releaseNamespace}=${namespace}`)} to:`,
      ...[...chartResources, 'secrets' as const]
        .map((r) => todo.filter((o) => o.resource === r))
        .filter((group) => group.length > 0)
        .map((group) => `${group[0]!.kind} (${group.length}): ${group.map((o) => code(o.name)).join(', ')}`),
    ];
    if (todo.length === 0) lines.splice(0, lines.length, `every chart resource of ${code(namespace)} already carries the chart manager's label and annotations`);
    for (const o of todo) await ctx.gateway.metadata.patch(o.resource, namespace, o.name, wanted, o.resourceVersion, true);
    const objects = todo.map((o) => ({ resource: o.resource, kind: o.kind, namespace, name: o.name, uid: o.uid, state: 'not labelled for the chart manager', pin: pinOf(o) }));
    const warnings = [
      ...foreign.map((o) => `${o.kind} ${namespace}/${o.name} belongs to release ${o.annotations[releaseName]}; left alone.`),
      `Other Secrets of ${namespace} are not read (that would need the right to read every Secret): label any the chart owns with \`kubectl -n ${namespace} label secret NAME ${managedBy}=Helm\` and annotate them with the release's name and namespace.`,
    ];
    return { lines, targets: objects.map(({ resource: _r, ...t }) => t), data: { namespace, release, objects }, warnings };
  },
  async run(ctx, planned) {
    const { namespace, release, objects } = planned.data;
    if (objects.length === 0) return { status: 'skipped', message: 'Every chart resource already carries the label and annotations.' };
    const wanted = change(release, namespace);
    const current = async (t: Data['objects'][number]) =>
      t.resource === 'secrets'
        ? await ctx.gateway.metadata.getSecret(namespace, t.name)
        : (await ctx.gateway.metadata.list(t.resource as MetaResource, namespace)).find((x) => x.name === t.name);
    const find = async (t: Data['objects'][number]) => {
      const o = await current(t);
      return o && o.uid === t.uid && pinOf(o) === t.pin ? o : undefined;
    };
    const labelled = pinOf(wanted);
    let done = 0;
    for (const t of objects) {
      // A run resumed after a worker died between its patches and its ledger finds the objects it labelled done.
      const was = await current(t);
      if (was && was.uid === t.uid && pinOf(was) === labelled) {
        done++;
        continue;
      }
      const o = await find(t);
      if (!o) return { status: 'changed', message: `${t.kind} ${namespace}/${t.name} changed since the plan; labelled ${done} of ${objects.length} before it, stopped there.` };
      const written = await writeWithOneRetry(
        o.resourceVersion,
        (rv) => ctx.gateway.metadata.patch(t.resource as MetaResource, namespace, t.name, wanted, rv),
        async () => (await find(t))?.resourceVersion,
      );
      if (!written.ok) return { status: 'changed', message: `${t.kind} ${namespace}/${t.name} was changed by someone else meanwhile; labelled ${done} of ${objects.length}, stopped there.` };
      done++;
    }
    return { status: 'done', message: `Labelled and annotated ${done} object(s) of ${namespace} for release ${release}; the chart manager can adopt them now.` };
  },
});
