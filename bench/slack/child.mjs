import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';

/**
 * The child side of the Slack benchmark, in plain JavaScript so that it also runs inside the bot's
 * production form (`node dist/src/cli.js bot`, no TypeScript loader), preloaded by probe.mjs.
 * Types: child.d.mts.
 */

/**
 * A process's own view of itself while the benchmark runs: peak memory (sampled every 50 ms; the
 * kernel's VmHWM is read by the parent), CPU time and event-loop delay.
 */
export function startSampler() {
  const peak = { rss: 0, heapUsed: 0 };
  const sample = () => {
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
    /** Starts a new window for the peaks (e.g. after the warm-up). */
    resetPeaks() {
      peak.rss = 0;
      peak.heapUsed = 0;
      sample();
    },
    stats(options = {}) {
      sample();
      let heapAfterGc;
      if (options.gc && typeof globalThis.gc === 'function') {
        globalThis.gc();
        heapAfterGc = process.memoryUsage().heapUsed;
      }
      const cpu = process.cpuUsage(cpuAt);
      const m = process.memoryUsage();
      return {
        peakRss: peak.rss,
        peakHeapUsed: peak.heapUsed,
        rss: m.rss,
        heapUsed: m.heapUsed,
        heapTotal: m.heapTotal,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        cpuMs: (cpu.user + cpu.system) / 1000,
        wallMs: performance.now() - wallAt,
        loopDelayP99Ms: loop.count > 0 ? loop.percentile(99) / 1e6 : 0,
        loopDelayMaxMs: loop.count > 0 ? loop.max / 1e6 : 0,
        ...(heapAfterGc !== undefined ? { heapAfterGc } : {}),
      };
    },
  };
}

/**
 * Answers the parent's requests (`{ id, type, arg }`) with these handlers, then announces `info` as
 * ready; `info` may be a promise, and the announcement waits for it.
 */
export function serveParent(handlers, info) {
  const send = (m) => void process.send?.(m);
  process.on('message', (m) => {
    if (typeof m !== 'object' || m === null || typeof m.type !== 'string') return;
    const handler = handlers[m.type];
    if (!handler) return send({ id: m.id, ok: false, error: `no handler ${m.type}` });
    Promise.resolve()
      .then(() => handler(m.arg))
      .then(
        (value) => send({ id: m.id, ok: true, value }),
        (err) => send({ id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
      );
  });
  // The parent going away (Ctrl-C, a crash) must not leave a child behind.
  process.on('disconnect', () => process.exit(0));
  void Promise.resolve(info).then((value) => send({ type: 'ready', info: value }));
}
