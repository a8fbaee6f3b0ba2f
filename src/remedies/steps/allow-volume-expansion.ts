import { z } from 'zod';
import { defineStep } from './kind.js';
import { stepBase } from './step.js';
import { code, writeWithOneRetry } from './support.js';

/** Entry 24: make the claim's storage class allow expansion (its own approved step). */
const allowVolumeExpansionStep = z.strictObject({ ...stepBase, kind: z.literal('allowVolumeExpansion'), claim: z.literal('gitSensorClaim') });
export type AllowVolumeExpansionStep = z.infer<typeof allowVolumeExpansionStep>;

/**
 * Entry 24, first half: the claim's storage class must allow volume expansion. If it does not, its
 * allowVolumeExpansion goes false → true (a cluster-scoped change: every claim of the class may grow);
 * if it does, the step is skipped with "already allowed".
 */
export const allowVolumeExpansion = defineStep({
  kind: 'allowVolumeExpansion',
  step: allowVolumeExpansionStep,
  data: z.object({ storageClass: z.string(), uid: z.string(), change: z.boolean() }),
  parameters: () => [],
  permissions: (step) => [
    { apiGroup: '', resource: 'persistentvolumeclaims', verbs: ['get'], scope: 'platformNamespace', resourceNames: [step.claim] },
    // The class is whatever the claim names, so RBAC cannot name it in advance.
    { apiGroup: 'storage.k8s.io', resource: 'storageclasses', verbs: ['get', 'patch'], scope: 'cluster' },
  ],
  async plan(ctx, step) {
    const namespace = ctx.names.platformNamespace;
    const claimName = ctx.names[step.claim];
    const claim = await ctx.gateway.storage.getClaim(namespace, claimName);
    const empty = { storageClass: '', uid: '', change: false };
    if (!claim) return { lines: [step.does], targets: [], data: empty, blocked: `Claim ${namespace}/${claimName} does not exist.` };
    if (!claim.storageClassName) return { lines: [step.does], targets: [], data: empty, blocked: `Claim ${namespace}/${claimName} names no storage class; it cannot be expanded.` };
    const sc = await ctx.gateway.storage.getStorageClass(claim.storageClassName);
    if (!sc) return { lines: [step.does], targets: [], data: empty, blocked: `StorageClass ${claim.storageClassName} of claim ${claimName} does not exist.` };
    if (sc.allowVolumeExpansion) {
      return { lines: [`StorageClass ${code(sc.name)} (of claim ${code(claimName)}) already allows volume expansion: nothing to change`], targets: [], data: { storageClass: sc.name, uid: sc.uid, change: false } };
    }
    await ctx.gateway.storage.allowExpansion(sc.name, sc.resourceVersion, true);
    return {
      lines: [`StorageClass ${code(sc.name)} (of claim ${code(claimName)}): allowVolumeExpansion false → true (cluster-wide: every claim of this class may then grow)`],
      targets: [{ kind: 'StorageClass', namespace: '', name: sc.name, uid: sc.uid, state: 'allowVolumeExpansion false', pin: 'allowVolumeExpansion=false' }],
      data: { storageClass: sc.name, uid: sc.uid, change: true },
    };
  },
  async run(ctx, planned) {
    const { storageClass, uid, change } = planned.data;
    if (!change) return { status: 'skipped', message: `StorageClass ${storageClass} already allows volume expansion.` };
    const sc = await ctx.gateway.storage.getStorageClass(storageClass);
    if (!sc || sc.uid !== uid) return { status: 'changed', message: `StorageClass ${storageClass} changed since the plan; not touched.` };
    if (sc.allowVolumeExpansion) return { status: 'skipped', message: `StorageClass ${storageClass} already allows volume expansion (changed since the plan by someone else).` };
    const written = await writeWithOneRetry(
      sc.resourceVersion,
      (rv) => ctx.gateway.storage.allowExpansion(storageClass, rv),
      async () => {
        const again = await ctx.gateway.storage.getStorageClass(storageClass);
        return again && again.uid === uid && !again.allowVolumeExpansion ? again.resourceVersion : undefined;
      },
    );
    if (!written.ok) return { status: 'changed', message: `StorageClass ${storageClass} was changed by someone else meanwhile; not touched.` };
    if (!written.value.allowVolumeExpansion) return { status: 'failed', message: `StorageClass ${storageClass} still does not allow volume expansion after the patch.` };
    return { status: 'done', message: `StorageClass ${storageClass} now allows volume expansion.` };
  },
});
