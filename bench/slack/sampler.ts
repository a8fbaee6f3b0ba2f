import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * A child's own view of itself while the benchmark runs: peak memory (sampled every 50 ms), CPU time
 * and event-loop delay. The parent reads it over IPC, so each figure belongs to exactly one process.
 */

/** What a child reports about itself. */
export interface ProcessStats {
  readonly peakRss: number;
  readonly peakHeapUsed: number;
  readonly rss: number;
  readonly heapUsed: number;
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

/** Starts sampling this process; `mark()` starts a new window for the CPU and loop-delay figures. */
export function startSampler(): { stats(options?: { gc?: boolean }): ProcessStats; mark(): void } {
  const peak = { rss: 0, heapUsed: 0 };
  const sample = (): void => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  };
  const timer = setInterval(sample, 50);
  timer.unref();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let cpuAt = process.cpuUsage();
  let wallAt = performance.now();
  sample();
  return {
    mark() {
      loop.reset();
      cpuAt = process.cpuUsage();
      wallAt = performance.now();
    },
    stats(options = {}) {
      sample();
      const gc = (globalThis as { gc?: () => void }).gc;
      let heapAfterGc: number | undefined;
      if (options.gc && gc) {
        gc();
        heapAfterGc = process.memoryUsage().heapUsed;
      }
      const cpu = process.cpuUsage(cpuAt);
      const m = process.memoryUsage();
      return {
        peakRss: peak.rss,
        peakHeapUsed: peak.heapUsed,
        rss: m.rss,
        heapUsed: m.heapUsed,
        cpuMs: (cpu.user + cpu.system) / 1000,
        wallMs: performance.now() - wallAt,
        loopDelayP99Ms: loop.count > 0 ? loop.percentile(99) / 1e6 : 0,
        loopDelayMaxMs: loop.count > 0 ? loop.max / 1e6 : 0,
        ...(heapAfterGc !== undefined ? { heapAfterGc } : {}),
      };
    },
  };
}
