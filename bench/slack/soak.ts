import { loadavg } from 'node:os';
import type { ProcessStats } from './child.mjs';
import type { BenchChild } from './ipc.js';
import { runLoad, type LoadOptions, type LoadResult } from './load.js';
import { kernelRss } from './production.js';

/**
 * The memory soak: the same load as the bar's, for minutes, with each app's heap read right after a
 * full garbage collection every `everySeconds`. A heap that keeps per-request state grows from one
 * sample to the next; a flat one stays within the noise of what is in flight at that moment.
 */

/** One reading of one app. */
export interface SoakSample {
  /** Seconds since the soak's load started. */
  readonly at: number;
  readonly heapAfterGc: number;
  readonly rss: number;
}

/** What the soak saw of one app. */
export interface SoakApp {
  readonly name: string;
  readonly samples: SoakSample[];
  /** Least-squares slope of the heap after GC, bytes per minute. */
  readonly slopePerMinute: number;
  /** The process's own sampled peaks (heap used: every 50 ms) over its whole life. */
  readonly stats: ProcessStats;
  /** The kernel's peak resident set (VmHWM) over the process's whole life, bytes. */
  readonly peakRss: number;
}

export interface SoakResult {
  readonly seconds: number;
  readonly everySeconds: number;
  readonly load: LoadResult;
  readonly apps: SoakApp[];
  /** 1-minute load average of the machine at each sample. */
  readonly machineLoad: number[];
}

/** Least-squares slope of y over x. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return sxx === 0 ? NaN : sxy / sxx;
}

export async function runSoak(options: {
  readonly load: Omit<LoadOptions, 'ticks'>;
  readonly seconds: number;
  readonly everySeconds: number;
  /** The apps of the load's targets, in the same order, with --expose-gc. */
  readonly apps: readonly BenchChild<unknown>[];
  readonly log: (line: string) => void;
}): Promise<SoakResult> {
  const { apps, everySeconds } = options;
  const samples: SoakSample[][] = apps.map(() => []);
  const machineLoad: number[] = [];
  const start = performance.now();
  const sample = async (): Promise<void> => {
    const at = (performance.now() - start) / 1000;
    machineLoad.push(loadavg()[0]!);
    // One after the other: a full GC pauses an app, and only that one.
    for (const [i, app] of apps.entries()) {
      const s = await app.call<ProcessStats>('stats', { gc: true });
      samples[i]!.push({ at, heapAfterGc: s.heapAfterGc ?? NaN, rss: s.rss });
    }
    const last = samples.map((s, i) => `${apps[i]!.name} ${(s.at(-1)!.heapAfterGc / 2 ** 20).toFixed(1)} MB`).join(', ');
    options.log(`Slack soak: ${at.toFixed(0)} s, heap after GC ${last}, load ${machineLoad.at(-1)!.toFixed(2)}`);
  };
  await sample();
  const timer = setInterval(() => void sample(), everySeconds * 1000);
  let load: LoadResult;
  try {
    load = await runLoad({ ...options.load, ticks: Math.round(options.seconds * options.load.perSecond) });
  } finally {
    clearInterval(timer);
  }
  await sample();
  const result: SoakApp[] = [];
  for (const [i, app] of apps.entries()) {
    const points = samples[i]!.map((s) => ({ x: s.at / 60, y: s.heapAfterGc }));
    result.push({
      name: app.name,
      samples: samples[i]!,
      slopePerMinute: slope(points),
      stats: await app.call<ProcessStats>('stats'),
      peakRss: kernelRss(app.process.pid!)?.hwm ?? NaN,
    });
  }
  return { seconds: options.seconds, everySeconds, load, apps: result, machineLoad };
}
