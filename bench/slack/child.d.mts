/** Types of child.mjs. */

/** What a child reports about itself. */
export interface ProcessStats {
  readonly peakRss: number;
  readonly peakHeapUsed: number;
  readonly rss: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly arrayBuffers: number;
  /** CPU time since the last mark, in milliseconds. */
  readonly cpuMs: number;
  /** Wall time since the last mark, in milliseconds. */
  readonly wallMs: number;
  /** Event-loop delay since the last mark (10 ms resolution timer), in milliseconds. */
  readonly loopDelayP99Ms: number;
  readonly loopDelayMaxMs: number;
  /** Heap used right after a full garbage collection (only when asked for and the process runs with --expose-gc). */
  readonly heapAfterGc?: number;
}

export interface Sampler {
  stats(options?: { gc?: boolean }): ProcessStats;
  mark(): void;
  resetPeaks(): void;
}

export function startSampler(): Sampler;

export function serveParent(handlers: Record<string, (arg: unknown) => unknown>, info: unknown): void;
