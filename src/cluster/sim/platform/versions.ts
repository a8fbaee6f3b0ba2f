import type { PlatformNames } from '../../../platform-names.js';
import { kinds } from '../apiserver/resources.js';
import type { ObjectStore } from '../apiserver/store.js';

/** A version gate of an entry: the remedy runs from `atLeast` on, or only below `below`. */
export interface VersionGate {
  readonly atLeast?: string;
  readonly below?: string;
}

/**
 * The platform versions the version-gated entries need, as the catalogue's `versions` say (a test checks
 * that both agree). Breaking such an entry first makes the installer's version one its remedy accepts,
 * so that each entry can be tried on the simulated cluster.
 */
export const versionGates: Readonly<Record<string, VersionGate>> = {
  'admin-password-reset': { atLeast: '0.6.9' },
  'admin-password-reset-legacy': { below: '0.6.9' },
  'chart-repo-tls-handshake': { atLeast: '0.7.1' },
};

const parts = (v: string) => v.replace(/^v/, '').split('.').map((p) => Number.parseInt(p, 10) || 0);
const older = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

/** The version just below `v` as releases are numbered (0.6.9 → 0.6.8, 0.7.0 → 0.6.99). */
function justBelow(v: string): string {
  const [major = 0, minor = 0, patch = 0] = parts(v);
  if (patch > 0) return `${major}.${minor}.${patch - 1}`;
  return minor > 0 ? `${major}.${minor - 1}.99` : `${Math.max(0, major - 1)}.99.99`;
}

/** The installer's `LTAG=` line, e.g. `v0.6.29`; undefined when it has none. */
export function installedVersion(store: ObjectStore, names: PlatformNames): string | undefined {
  const installer = store.get(kinds.installer, names.platformNamespace, names.installerName);
  const data = (installer?.['status'] as { sync?: { data?: unknown } } | undefined)?.sync?.data;
  const line = typeof data === 'string' ? data.split('\n').find((l) => l.startsWith('LTAG=')) : undefined;
  return line?.slice('LTAG='.length);
}

/** Sets the installer's version to one the entry's gate accepts, unless it already does; returns the version set. */
export function meetVersionGate(store: ObjectStore, names: PlatformNames, entryId: string): string | undefined {
  const gate = versionGates[entryId];
  const installer = store.get(kinds.installer, names.platformNamespace, names.installerName);
  if (!gate || !installer) return undefined;
  const now = parts(installedVersion(store, names) ?? '0');
  let wanted: string | undefined;
  if (gate.atLeast && older(now, parts(gate.atLeast))) wanted = gate.atLeast;
  if (gate.below && !older(now, parts(gate.below))) wanted = justBelow(gate.below);
  if (!wanted) return undefined;
  const status = (installer['status'] ?? {}) as { sync?: { data?: string } };
  const data = (status.sync?.data ?? '').split('\n').filter((l) => !l.startsWith('LTAG='));
  store.update(kinds.installer, { ...installer, status: { ...status, sync: { ...status.sync, data: [`LTAG=v${wanted}`, ...data].join('\n') } } });
  return `v${wanted}`;
}
