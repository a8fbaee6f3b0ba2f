import type { PlatformNames } from '../../src/platform-names.js';

/** What the doctor benchmark's cluster process announces once seeded and settled. */
export interface SimInfo {
  readonly kubeconfig: string;
  readonly names: PlatformNames;
  readonly seedMs: number;
  readonly settleMs: number;
  /** What the cluster holds, the standard install included. */
  readonly cluster: {
    readonly pods: number;
    readonly jobs: number;
    readonly deployments: number;
    readonly namespaces: number;
    readonly events: number;
    readonly warnings: number;
    readonly oldestEventDays: number;
  };
  /** Bytes of the largest lists the doctor reads, as served. */
  readonly listBytes: { readonly pods: number; readonly warnings: number; readonly deployments: number };
}
