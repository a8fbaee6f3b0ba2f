import { z } from 'zod';
import type { ClaimSize } from '../../cluster/gateway.js';
import { compareQuantities } from '../../quantity.js';
import { allowVolumeExpansion } from './allow-volume-expansion.js';
import { defineStep } from './kind.js';
import { parameterName, stepBase } from './step.js';
import type { StepContext, StepResult } from './context.js';
import { isClassRefusal, resizeThroughAdmission, StillRefused } from './resize-admission.js';
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

/**
 * How long the run looks for the new capacity. Only briefly: `status.capacity` moves when the resizer and
 * the kubelet have grown the volume and its file system, which on a real cluster takes from seconds to
 * minutes, so "requested, not yet reported" is the usual, honest outcome.
 */
const growWithinSeconds = 5;

/** Whether the class allows expansion, read through the API now (not as the admission plugin's cache has it). */
const classAllows = (ctx: StepContext, className: string) => async () => (await ctx.gateway.storage.getStorageClass(className))?.allowVolumeExpansion === true;

/** The plan's dry-run resize: undefined when the server would accept it, else why it would not. */
async function dryRunRefusal(dryRun: () => Promise<unknown>, allows: () => Promise<boolean>): Promise<string | undefined> {
  try {
    await resizeThroughAdmission(dryRun, allows);
    return undefined;
  } catch (err) {
    if (err instanceof StillRefused) return `The API server refuses to grow the claim although its StorageClass allows volume expansion: ${err.refusal}`;
    throw err;
  }
}

/** Raises the planned claim's request; a result when it did not (changed, or refused), undefined when it did. */
async function resize(ctx: StepContext, data: { namespace: string; claim: string; uid: string; from: string; to: string }, claim: ClaimSize | undefined): Promise<StepResult | undefined> {
  const { namespace, claim: name, uid, from, to } = data;
  const holds = (c: ClaimSize | undefined) => c !== undefined && c.uid === uid && c.requested === from;
  if (!claim || !holds(claim)) return { status: 'changed', message: `Claim ${namespace}/${name} changed since the plan (it no longer requests ${from}); not touched.` };
  let written: Awaited<ReturnType<typeof writeWithOneRetry<ClaimSize>>>;
  try {
    written = await writeWithOneRetry(
      claim.resourceVersion,
      (rv) => resizeThroughAdmission(() => ctx.gateway.storage.resizeClaim(namespace, name, to, rv), classAllows(ctx, claim.storageClassName)),
      async () => {
        const again = await ctx.gateway.storage.getClaim(namespace, name);
        return holds(again) ? again?.resourceVersion : undefined;
      },
    );
  } catch (err) {
    if (err instanceof StillRefused) {
      return {
        status: 'failed',
        message: `The API server still refuses to grow claim ${namespace}/${name} after ${err.tries} tries over 6 s, although StorageClass ${claim.storageClassName} allows volume expansion when read: "${err.refusal}". The claim was not changed; try again in a minute, and if it persists, check that the claim was dynamically provisioned by that class.`,
      };
    }
    if (isClassRefusal(err)) return { status: 'failed', message: `StorageClass ${claim.storageClassName} does not allow volume expansion (changed since the plan?), so the API server refused the resize; the claim was not changed.` };
    throw err;
  }
  if (!written.ok) return { status: 'changed', message: `Claim ${namespace}/${name} was changed by someone else during the resize; not touched.` };
  return undefined;
}

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
    if (sc?.allowVolumeExpansion) {
      const refused = await dryRunRefusal(() => ctx.gateway.storage.resizeClaim(namespace, claimName, size, claim.resourceVersion, true), classAllows(ctx, claim.storageClassName));
      if (refused) return block(refused);
    }
    const after = sc?.allowVolumeExpansion ? '' : ' (after the step before allows expansion)';
    return {
      lines: [`PersistentVolumeClaim ${code(`${namespace}/${claimName}`)}: spec.resources.requests.storage ${code(claim.requested)} → ${code(size)}${after}; capacity now ${code(claim.capacity || '?')}`],
      targets: [{ kind: 'PersistentVolumeClaim', namespace, name: claimName, uid: claim.uid, state: `requests ${claim.requested}, capacity ${claim.capacity}`, pin: `requests=${claim.requested}` }],
      data: { namespace, claim: claimName, uid: claim.uid, from: claim.requested, to: size },
    };
  },
  async run(ctx, planned) {
    const { namespace, claim: name, uid, from, to } = planned.data;
    const claim = await ctx.gateway.storage.getClaim(namespace, name);
    // A run resumed after a worker died between its resize and its ledger finds the claim requesting the new
    // size: only its capacity is left to look at, not a change by someone else.
    const requested = claim !== undefined && claim.uid === uid && compareQuantities(claim.requested, to) === 0;
    if (!requested) {
      const refused = await resize(ctx, planned.data, claim);
      if (refused) return refused;
    }
    let last: ClaimSize | undefined;
    const grown = await pollFor(ctx, growWithinSeconds, async () => {
      last = await ctx.gateway.storage.getClaim(namespace, name);
      return last && (compareQuantities(last.capacity, to) ?? -1) >= 0 ? last : undefined;
    });
    if (!grown) {
      const state = last?.conditions.length ? `; the claim says ${last.conditions.join('; ')}` : '';
      return {
        status: 'done',
        message: `Claim ${name} now requests ${to}; its capacity still reads ${last?.capacity || from}: requested, not yet reported by the volume${state}. The capacity usually follows within minutes; a claim left at FileSystemResizePending needs the pod that mounts it restarted.`,
      };
    }
    return { status: 'done', message: `Claim ${name} grew from ${from} to ${to} (capacity ${grown.capacity}).` };
  },
});
