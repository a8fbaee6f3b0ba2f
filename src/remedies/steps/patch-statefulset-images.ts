import { z } from 'zod';
import type { StatefulSetImages } from '../../cluster/gateway.js';
import { defineStep } from './kind.js';
import { stepBase } from './step.js';
import { code, writeWithOneRetry } from './support.js';

/** Entry 9: set the images of a stateful set's init container and container. */
const patchStatefulSetImagesStep = z.strictObject({
  ...stepBase,
  kind: z.literal('patchStatefulSetImages'),
  statefulSet: z.literal('databaseStatefulSet'),
  images: z.array(z.strictObject({ container: z.enum(['databaseInitContainer', 'databaseContainer']), image: z.string().min(1) })).min(1),
});
export type PatchStatefulSetImagesStep = z.infer<typeof patchStatefulSetImagesStep>;

const change = z.object({ container: z.string(), init: z.boolean(), from: z.string(), to: z.string() });
const schema = z.object({ namespace: z.string(), name: z.string(), uid: z.string(), changes: z.array(change) });
type Change = z.infer<typeof change>;

/** The images the run replaces, in a stable order: what the plan pins. */
const pinOf = (changes: readonly Change[]) => changes.map((c) => `${c.container}=${c.from}`).join(',');

function imageOf(sts: StatefulSetImages, c: Pick<Change, 'container' | 'init'>): string | undefined {
  return (c.init ? sts.initContainers : sts.containers).find((x) => x.name === c.container)?.image;
}

/** A strategic merge patch: containers merge by name, so only the named ones change. */
function patchOf(changes: readonly Change[], resourceVersion: string): object {
  const pick = (init: boolean) => changes.filter((c) => c.init === init).map((c) => ({ name: c.container, image: c.to }));
  const init = pick(true);
  const main = pick(false);
  return { metadata: { resourceVersion }, spec: { template: { spec: { ...(init.length > 0 ? { initContainers: init } : {}), ...(main.length > 0 ? { containers: main } : {}) } } } };
}

/**
 * Entry 9: points the database stateful set's init container and container at the replacement images.
 * The pods keep their images until deleted (the stage's next steps). Pinned by the images it replaces.
 */
export const patchStatefulSetImages = defineStep({
  kind: 'patchStatefulSetImages',
  step: patchStatefulSetImagesStep,
  data: schema,
  parameters: () => [],
  permissions: (step) => [{ apiGroup: 'apps', resource: 'statefulsets', verbs: ['get', 'patch'], scope: 'platformNamespace', resourceNames: [step.statefulSet] }],
  async plan(ctx, step) {
    const namespace = ctx.names.platformNamespace;
    const name = ctx.names[step.statefulSet];
    const sts = await ctx.gateway.workloads.getStatefulSet(namespace, name);
    const empty = { namespace, name, uid: '', changes: [] };
    if (!sts) return { lines: [step.does], targets: [], data: empty, blocked: `StatefulSet ${namespace}/${name} does not exist.` };
    const lines: string[] = [];
    const changes: Change[] = [];
    for (const want of step.images) {
      const container = ctx.names[want.container];
      const init = want.container === 'databaseInitContainer';
      const from = imageOf(sts, { container, init });
      if (from === undefined) return { lines: [step.does], targets: [], data: empty, blocked: `StatefulSet ${namespace}/${name} has no ${init ? 'init container' : 'container'} ${container}.` };
      const what = `StatefulSet ${code(`${namespace}/${name}`)} ${init ? 'init container' : 'container'} ${code(container)}`;
      if (from === want.image) lines.push(`${what}: already ${code(from)}`);
      else {
        lines.push(`${what}: image ${code(from)} → ${code(want.image)}`);
        changes.push({ container, init, from, to: want.image });
      }
    }
    const data = { namespace, name, uid: sts.uid, changes };
    if (changes.length === 0) return { lines, targets: [], data };
    await ctx.gateway.workloads.patchStatefulSet(namespace, name, patchOf(changes, sts.resourceVersion), true);
    return { lines, targets: [{ kind: 'StatefulSet', namespace, name, uid: sts.uid, state: `${sts.containers.length} container(s)`, pin: pinOf(changes) }], data };
  },
  async run(ctx, planned) {
    const { namespace, name, uid, changes } = planned.data;
    if (changes.length === 0) return { status: 'skipped', message: `StatefulSet ${name} already uses the replacement images.` };
    // The pin holds while the stateful set is the planned one and still has the images the plan replaces.
    const holds = (sts: StatefulSetImages | undefined) => sts !== undefined && sts.uid === uid && changes.every((c) => imageOf(sts, c) === c.from);
    const sts = await ctx.gateway.workloads.getStatefulSet(namespace, name);
    // A run resumed after a worker died between its patch and its ledger finds the images already replaced.
    if (sts && sts.uid === uid && changes.every((c) => imageOf(sts, c) === c.to)) {
      return { status: 'skipped', message: `StatefulSet ${name} already uses the replacement images (set by an earlier try of this step, or since the plan).`, details: changes.map((c) => `${c.container}: ${c.to}`) };
    }
    if (!sts || !holds(sts)) return { status: 'changed', message: `StatefulSet ${namespace}/${name} changed since the plan; its images were not touched.` };
    const written = await writeWithOneRetry(
      sts.resourceVersion,
      (rv) => ctx.gateway.workloads.patchStatefulSet(namespace, name, patchOf(changes, rv)),
      async () => {
        const again = await ctx.gateway.workloads.getStatefulSet(namespace, name);
        return again && holds(again) ? again.resourceVersion : undefined;
      },
    );
    if (!written.ok) return { status: 'changed', message: `StatefulSet ${namespace}/${name} was changed by someone else during the patch; its images were not touched.` };
    const wrong = changes.filter((c) => imageOf(written.value, c) !== c.to);
    if (wrong.length > 0) return { status: 'failed', message: `The patch did not take for ${wrong.map((c) => c.container).join(', ')}.` };
    return {
      status: 'done',
      message: `StatefulSet ${name} now uses the replacement images; its pod keeps the old ones until it is deleted.`,
      details: changes.map((c) => `${c.container}: ${c.from} → ${c.to}`),
    };
  },
});
