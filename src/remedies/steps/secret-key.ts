import type { SecretData } from '../../cluster/gateway.js';
import type { PlatformNames } from '../../platform-names.js';
import type { Permission } from './step.js';
import type { StepContext } from './context.js';

/**
 * A credential read from the platform secret for one call: the value lives only in memory, for the
 * duration of a plan or a run. It is never put into lines, data, results or errors; `where` names the
 * secret and key so messages can say where the value came from without saying what it is.
 */
export type SecretKeyRead =
  | { readonly ok: true; readonly value: string; readonly where: string }
  | { readonly ok: false; readonly message: string; readonly where: string };

/** Reads and base64-decodes one key of the platform secret (section 2.1: values are stored base64-encoded). */
export async function readPlatformSecretKey(ctx: StepContext, key: string): Promise<SecretKeyRead> {
  return platformSecretKey(await ctx.gateway.readSecret(ctx.names.platformNamespace, ctx.names.platformSecret), ctx.names, key);
}

/** One key of the platform secret as already read (undefined: the secret does not exist), base64-decoded. */
export function platformSecretKey(secret: SecretData | undefined, names: Pick<PlatformNames, 'platformNamespace' | 'platformSecret'>, key: string): SecretKeyRead {
  const namespace = names.platformNamespace;
  const name = names.platformSecret;
  const where = `key ${key} of secret ${namespace}/${name}`;
  if (!secret) return { ok: false, where, message: `The platform secret ${namespace}/${name} does not exist, so the password (${where}) cannot be read.` };
  const encoded = secret.data[key];
  if (encoded === undefined) return { ok: false, where, message: `The platform secret ${namespace}/${name} has no key ${key}; set the cluster's password key name or add the key.` };
  const value = Buffer.from(encoded, 'base64').toString('utf8');
  if (value === '') return { ok: false, where, message: `The ${where} is empty.` };
  return { ok: true, value, where };
}

/** Reading the platform secret: `get` on that one secret of the platform namespace. */
export const platformSecretPermission: Permission = {
  apiGroup: '',
  resource: 'secrets',
  verbs: ['get'],
  scope: 'platformNamespace',
  resourceNames: ['platformSecret'],
};
