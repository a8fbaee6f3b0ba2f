import { z } from 'zod';
import { defineStep } from './kind.js';
import { stepBase } from './step.js';
import { code, pollFor } from './support.js';
import { compareVersions, platformVersion } from './version.js';

/**
 * Sections 5.1 and entry 17: read a key of a secret (the key chosen by the platform version) and show
 * it only as an ephemeral message to an authorised user. Never logged, never in job data.
 */
const revealSecretStep = z.strictObject({
  ...stepBase,
  kind: z.literal('revealSecret'),
  risk: z.literal('read-only'),
  secret: z.literal('platformSecret'),
  /** Key from v0.6.9 on, and before it (section 5.1). */
  key: z.strictObject({ fromV069: z.string(), before: z.string() }),
});
export type RevealSecretStep = z.infer<typeof revealSecretStep>;

/** How long a run waits for the key to (re)appear: after a reset the platform regenerates it a moment later. */
const appearWithinSeconds = 120;

/**
 * Sections 5.1, 5.2, 5.3 and entry 17: the admin password, read and decoded by the worker and handed on
 * only sealed to the person who asked (ctx.seal). The plan checks that the secret and the key exist
 * (it reads the key names only); the value exists only inside `run`, between the read and the seal.
 */
export const revealSecret = defineStep({
  kind: 'revealSecret',
  step: revealSecretStep,
  data: z.object({ namespace: z.string(), secret: z.string(), key: z.string(), version: z.string() }),
  parameters: () => [],
  permissions: (step) => [
    { apiGroup: '', resource: 'secrets', verbs: ['get'], scope: 'platformNamespace', resourceNames: [step.secret] },
    { apiGroup: 'installer.devtron.ai', resource: 'installers', verbs: ['get'], scope: 'platformNamespace', resourceNames: ['installerName'] },
  ],
  async plan(ctx, step) {
    const namespace = ctx.names.platformNamespace;
    const secret = ctx.names[step.secret];
    const found = await platformVersion(ctx);
    if ('problem' in found) return { lines: [step.does], targets: [], data: { namespace, secret, key: '', version: '' }, blocked: `Cannot tell which key holds the password: ${found.problem}.` };
    // Section 5.1: ADMIN_PASSWORD from v0.6.9 on, ACD_PASSWORD before.
    const key = compareVersions(found.parts, [0, 6, 9]) >= 0 ? step.key.fromV069 : step.key.before;
    const data = { namespace, secret, key, version: found.version };
    const stored = await ctx.gateway.secrets.read(namespace, secret);
    if (!stored) return { lines: [step.does], targets: [], data, blocked: `Secret ${namespace}/${secret} does not exist; there is no password to read.` };
    const line = `read key ${code(key)} of Secret ${code(`${namespace}/${secret}`)} (platform ${found.version}), decode it and show it only to you`;
    const present = Object.keys(stored.data).includes(key);
    return present
      ? { lines: [line], targets: [], data }
      : { lines: [line], targets: [], data, warnings: [`Secret ${namespace}/${secret} has no ${key} key now; the run waits up to ${appearWithinSeconds} s for the platform to generate it.`] };
  },
  async run(ctx, planned) {
    const { namespace, secret, key } = planned.data;
    // Without a key to seal to, nothing is read at all: a password must never travel in the clear.
    if (!ctx.seal) return { status: 'failed', message: `Cannot show the password: this run has no key to seal it to, so it was not read. Ask again with /platform password.` };
    const seal = ctx.seal;
    const value = await pollFor(ctx, appearWithinSeconds, async () => (await ctx.gateway.secrets.read(namespace, secret))?.data[key]);
    if (value === undefined) return { status: 'failed', message: `Secret ${namespace}/${secret} still has no ${key} key after ${appearWithinSeconds} s; the platform did not generate a new password.` };
    const sealed = seal(Buffer.from(value, 'base64').toString('utf8'));
    return { status: 'done', message: `The admin password (${key} of ${secret}) is ready; it is shown only to the person who asked.`, sealed };
  },
});
