import { z } from 'zod';
import { ClusterError } from '../../cluster/errors.js';
import { defineStep } from './kind.js';
import { stepBase } from './step.js';
import { code } from './support.js';

/** Sections 5.2, 5.3 and entry 22: remove keys from a secret, after saving it as a timestamped backup. */
const removeSecretKeysStep = z.strictObject({
  ...stepBase,
  kind: z.literal('removeSecretKeys'),
  secret: z.enum(['platformSecret', 'gitopsSecret']),
  keys: z.array(z.string().min(1)).min(1),
});
export type RemoveSecretKeysStep = z.infer<typeof removeSecretKeysStep>;

/** The label that ties a backup to the secret it saves. */
export const backupLabel = 'platform-medic.dev/backup-of';

/** `<secret>-backup-YYYYMMDDHHMMSS`, in UTC. */
export function backupName(secret: string, at: Date): string {
  return `${secret}-backup-${at.toISOString().replace(/[-:T]/g, '').slice(0, 14)}`;
}

const pinOf = (resourceVersion: string) => `resourceVersion=${resourceVersion}`;

/**
 * Sections 5.2, 5.3 and entry 22: saves the whole secret as a timestamped backup, then removes the
 * keys with a JSON patch that first tests the planned resourceVersion. The card and the thread show
 * key names only; the values pass through the worker's memory on their way into the backup, never
 * into a line, a log or job data.
 */
export const removeSecretKeys = defineStep({
  kind: 'removeSecretKeys',
  step: removeSecretKeysStep,
  data: z.object({ namespace: z.string(), secret: z.string(), remove: z.array(z.string()), uid: z.string(), resourceVersion: z.string() }),
  parameters: () => [],
  permissions: (step) => [
    { apiGroup: '', resource: 'secrets', verbs: ['get', 'patch'], scope: 'platformNamespace', resourceNames: [step.secret] },
    // A backup's name carries its time, so RBAC cannot name it in advance.
    { apiGroup: '', resource: 'secrets', verbs: ['create'], scope: 'platformNamespace' },
  ],
  async plan(ctx, step) {
    const namespace = ctx.names.platformNamespace;
    const secret = ctx.names[step.secret];
    const stored = await ctx.gateway.secrets.read(namespace, secret);
    const empty = { namespace, secret, remove: [], uid: '', resourceVersion: '' };
    if (!stored) return { lines: [step.does], targets: [], data: empty, blocked: `Secret ${namespace}/${secret} does not exist.` };
    const keys = Object.keys(stored.data).sort();
    const remove = step.keys.filter((k) => keys.includes(k));
    const absent = step.keys.filter((k) => !keys.includes(k));
    const data = { namespace, secret, remove, uid: stored.uid, resourceVersion: stored.resourceVersion };
    if (remove.length === 0) {
      return { lines: [`Secret ${code(`${namespace}/${secret}`)} has none of ${step.keys.map(code).join(', ')}; nothing to remove`], targets: [], data };
    }
    // Validates the patch (and the permissions) without changing anything.
    await ctx.gateway.secrets.removeKeys(namespace, secret, remove, stored.resourceVersion, true);
    const lines = [
      `back up Secret ${code(`${namespace}/${secret}`)} (keys ${keys.map(code).join(', ')}) as ${code(`${secret}-backup-<time of the run>`)}, labelled ${code(`${backupLabel}=${secret}`)}`,
      `remove from Secret ${code(`${namespace}/${secret}`)}: ${remove.map(code).join(', ')}${absent.length > 0 ? ` (already absent: ${absent.map(code).join(', ')})` : ''}`,
    ];
    const state = `${keys.length} keys`;
    return { lines, targets: [{ kind: 'Secret', namespace, name: secret, uid: stored.uid, state, pin: pinOf(stored.resourceVersion) }], data };
  },
  async run(ctx, planned) {
    const { namespace, secret, remove, uid, resourceVersion } = planned.data;
    if (remove.length === 0) return { status: 'skipped', message: `Secret ${secret} had none of the keys; nothing removed.` };
    const stored = await ctx.gateway.secrets.read(namespace, secret);
    // A run resumed after a worker died between the patch and its ledger finds the keys gone: that is this
    // step done (its backup made first), not a secret that changed with nothing backed up or removed.
    if (stored && stored.uid === uid && remove.every((k) => stored.data[k] === undefined)) {
      return {
        status: 'skipped',
        message: `${remove.join(', ')} already gone from Secret ${namespace}/${secret}: removed by an earlier try of this step (its backup is labelled ${backupLabel}=${secret}) or by someone since the plan; nothing removed now.`,
      };
    }
    if (!stored || stored.uid !== uid || stored.resourceVersion !== resourceVersion) {
      return { status: 'changed', message: `Secret ${namespace}/${secret} changed since the plan; no backup made, no key removed.` };
    }
    const backup = backupName(secret, ctx.now());
    await ctx.gateway.secrets.create(namespace, { name: backup, labels: { [backupLabel]: secret }, type: stored.type, data: stored.data });
    try {
      await ctx.gateway.secrets.removeKeys(namespace, secret, remove, resourceVersion);
    } catch (err) {
      // The test operation on resourceVersion failed: someone wrote the secret in between. Nothing removed.
      if (err instanceof ClusterError && (err.code === 'invalid' || err.code === 'conflict')) {
        return { status: 'changed', message: `Secret ${namespace}/${secret} changed while the backup was made; no key removed (backup ${backup} kept).` };
      }
      throw err;
    }
    const after = await ctx.gateway.secrets.read(namespace, secret);
    const left = remove.filter((k) => after?.data[k] !== undefined);
    if (left.length > 0) return { status: 'failed', message: `Keys still present in ${secret} after the patch: ${left.join(', ')}.`, details: [`backup: ${backup}`] };
    return { status: 'done', message: `Saved ${secret} as ${backup}, then removed ${remove.join(', ')}.`, details: [`backup Secret ${namespace}/${backup} (label ${backupLabel}=${secret})`] };
  },
});
