import { z } from 'zod';
import type { ClaimSize } from '../../cluster/gateway.js';
import { compareQuantities } from '../../quantity.js';
import { allowVolumeExpansion } from './allow-volume-expansion.js';
import { defineStep } from './kind.js';
import { parameterName, stepBase } from './step.js';
import { code, paramOf, pollFor, writeWithOneRetry } from './support.js';

/** Entry 24: raise a claim's requested storage, after checking its storage class allows expansion. */
const growClaimStep = z.strictObject({
  ...stepBase,
  kind: z.literal('growClaim'),
  claim: z.literal('gitSensorClaim'),
  /** The parameter that holds the new size, e.g. `size` = `20Gi`. */
  sizeParam: parameterName,
});
export type GrowClaimStep = z.infer<typeof growClaimStep>;

/** How long the run waits for the volume to report its new capacity. */
const growWithinSeconds = 60;

/**
 * Entry 24, second half: raises the claim's requested storage to the `size` parameter. Blocked when
 * the size is not larger than the request (claims never shrink), or when the storage class does not
 * allow expansion and no earlier step of the stage makes it.
 */
export const growClaim = defineStep({
  kind: 'growClaim',
  step: growClaimStep,
  data: z.object({ namespace: z.string(), claim: z.string(), uid: z.string(), from: z.string(), to: z.string() }),
  parameters: (step) => [step.sizeParam],
  permissions: (step) => [
    { apiGroup: '', resource: 'persistentvolumeclaims', verbs: ['get', 'patch'], scope: 'platformNamespace', resourceNames: [step.claim] },
    { apiGroup: 'storage.k8s.io', resource: 'storageclasses', verbs: ['get'], scope: 'cluster' },
  ],
  async plan(ctx, step) {
    const namespace = ctx.names.platformNamespace;
    const claimName = ctx.names[step.claim];
    const size = paramOf(ctx, step.sizeParam) ?? '';
    const empty = { namespace, claim: claimName, uid: '', from: '', to: size };
    const block = (why: string) => ({ lines: [step.does], targets: [], data: empty, blocked: why });
    if (!size) return block(`Give the new size: ${step.sizeParam}=<size>, e.g. ${step.sizeParam}=20Gi.`);
    const claim = await ctx.gateway.storage.getClaim(namespace, claimName);
    if (!claim) return block(`Claim ${namespace}/${claimName} does not exist.`);
    const order = compareQuantities(size, claim.requested);
    if (order === undefined) return block(`Cannot compare ${size} with the claim's request ${claim.requested}: not a size.`);
    if (order <= 0) return block(`The claim ${claimName} already requests ${claim.requested}; ${step.sizeParam}=${size} is not larger (a claim can only grow).`);
    const sc = claim.storageClassName ? await ctx.gateway.storage.getStorageClass(claim.storageClassName) : undefined;
    const madeExpandable = (ctx.earlier ?? []).some((s) => allowVolumeExpansion.is(s) && s.claim === step.claim);
    if (!sc?.allowVolumeExpansion && !madeExpandable) {
      return block(`StorageClass ${claim.storageClassName || '(none)'} of claim ${claimName} does not allow volume expansion, and nothing in this stage changes that.`);
    }
    // The server validates the resize only once the class allows it; before that, the run checks it.
    if (sc?.allowVolumeExpansion) await ctx.gateway.storage.resizeClaim(namespace, claimName, size, claim.resourceVersion, true);
    const after = sc?.allowVolumeExpansion ? '' : ' (after the step before allows expansion)';
    return {
      lines: [`PersistentVolumeClaim ${code(`${namespace}/${claimName}`)}: spec.resources.requests.storage ${code(claim.requested)} → ${code(size)}${after}; capacity now ${code(claim.capacity || '?')}`],
      targets: [{ kind: 'PersistentVolumeClaim', namespace, name: claimName, uid: claim.uid, state: `requests ${claim.requested}, capacity ${claim.capacity}`, pin: `requests=${claim.requested}` }],
      data: { namespace, claim: claimName, uid: claim.uid, from: claim.requested, to: size },
    };
  },
  async run(ctx, planned) {
    const { namespace, claim: name, uid, from, to } = planned.data;
    const holds = (c: ClaimSize | undefined) => c !== undefined && c.uid === uid && c.requested === from;
    const claim = await ctx.gateway.storage.getClaim(namespace, name);
    if (!claim || !holds(claim)) return { status: 'changed', message: `Claim ${namespace}/${name} changed since the plan (it no longer requests ${from}); not touched.` };
    const written = await writeWithOneRetry(
      claim.resourceVersion,
      (rv) => ctx.gateway.storage.resizeClaim(namespace, name, to, rv),
      async () => {
        const again = await ctx.gateway.storage.getClaim(namespace, name);
        return holds(again) ? again?.resourceVersion : undefined;
      },
    );
    if (!written.ok) return { status: 'changed', message: `Claim ${namespace}/${name} was changed by someone else during the resize; not touched.` };
    const grown = await pollFor(ctx, growWithinSeconds, async () => {
      const now = await ctx.gateway.storage.getClaim(namespace, name);
      return now && (compareQuantities(now.capacity, to) ?? -1) >= 0 ? now : undefined;
    });
    if (!grown) return { status: 'done', message: `Claim ${name} now requests ${to}; the volume has not reported the new capacity yet (it may need the pod restarted).` };
    return { status: 'done', message: `Claim ${name} grew from ${from} to ${to} (capacity ${grown.capacity}).` };
  },
});
