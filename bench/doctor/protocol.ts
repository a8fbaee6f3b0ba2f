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

/** Wall time and the worker's CPU time of one piece of work, in milliseconds. */
export interface Cost {
  readonly ms: number;
  readonly cpuMs: number;
}

/** One scan as the worker's process measured it. */
export interface ScanMeasure extends Cost {
  /** V8's used heap after a full GC before the scan. */
  readonly heapBase: number;
  /** Used heap at the end of the scan minus the base (garbage not yet collected included). */
  readonly heapDelta: number;
  /** The highest used heap seen during the scan (sampled every 5 ms, between the event loop's turns) minus the base. */
  readonly heapPeakDelta: number;
  /** Resident set after that GC, and the kernel's peak (VmHWM, reset before the scan) during it. */
  readonly rssBefore: number;
  readonly peakRss: number;
  /** Entries present, and unknown with a reason other than having no detector. */
  readonly present: readonly string[];
  readonly unknown: readonly string[];
}

/** The worker's process when ready: after loading everything and a full GC, before any scan. */
export interface WorkerMemory {
  readonly rss: number;
  readonly heapUsed: number;
  readonly peakRss: number;
}
