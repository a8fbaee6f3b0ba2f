import type { StepContext } from './context.js';
import { ClusterError } from '../../cluster/errors.js';
import { customKinds } from '../../cluster/gateway.js';

/** Versions of the platform as the guide writes them: v0.6.9, 0.7.1, v0.6.29 (a leading v, dotted numbers). */
export function parseVersion(text: string): number[] | undefined {
  const m = /^v?(\d+(?:\.\d+)*)(?:[-+].*)?$/.exec(text.trim());
  return m ? m[1]!.split('.').map(Number) : undefined;
}

/** Negative, zero or positive as `a` is older than, equal to or newer than `b` (missing parts count as 0). */
export function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** `v0.6.9` for display, whichever way it was written. */
export const showVersion = (text: string): string => (text.startsWith('v') ? text : `v${text}`);

/**
 * The platform version, from the installer object's `status.sync.data` line `LTAG=` (section 9).
 * A message instead when it cannot be read, saying what is missing.
 */
export async function platformVersion(ctx: StepContext): Promise<{ version: string; parts: number[] } | { problem: string }> {
  const ns = ctx.names.platformNamespace;
  const name = ctx.names.installerName;
  const installer = await ctx.gateway.custom.get(customKinds.installer, ns, name).catch((err: unknown) => {
    if (err instanceof ClusterError && err.code === 'no-such-type') return 'no type' as const;
    throw err;
  });
  if (installer === 'no type') {
    return { problem: 'this cluster has no Installer resource type (installer.devtron.ai/v1alpha1 is not served): the platform was not installed by its installer here, so its version cannot be read from the installer object' };
  }
  if (!installer) return { problem: `the installer object installers.installer.devtron.ai ${ns}/${name} does not exist, so the platform version cannot be read` };
  const data = (installer.status?.['sync'] as { data?: unknown } | undefined)?.data;
  const line = typeof data === 'string' ? data.split('\n').find((l) => l.trim().startsWith('LTAG=')) : undefined;
  const version = line?.trim().slice('LTAG='.length).trim() ?? '';
  const parts = parseVersion(version);
  if (!parts) return { problem: `the installer object ${ns}/${name} has no readable LTAG= line in status.sync.data${version ? ` (found "${version.slice(0, 40)}")` : ''}` };
  return { version: showVersion(version), parts };
}
