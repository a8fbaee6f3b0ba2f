import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { Session } from 'node:inspector/promises';
import { setTimeout } from 'node:timers';
import { writeHeapSnapshot } from 'node:v8';
import { serveParent, startSampler } from './child.mjs';

/**
 * Preloaded (`node --import bench/slack/probe.mjs dist/src/cli.js bot`) into the bot's production form
 * by the Slack benchmark, and only there: it answers the benchmark's questions over the IPC channel
 * of `fork` (memory, CPU, a heap snapshot), so the product itself serves nothing extra. Ready once the
 * bot's /readyz answers 200, as the manifest's readiness probe would see it.
 */

const sampler = startSampler();
const port = Number(process.env.PORT);
let inspector;

function readyz() {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/readyz', timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

async function ready() {
  for (;;) {
    if (await readyz()) return { port };
    await new Promise((r) => setTimeout(r, 100));
  }
}

serveParent(
  {
    stats: (arg) => sampler.stats(arg ?? {}),
    mark: () => sampler.mark(),
    resetPeaks: () => sampler.resetPeaks(),
    /** Writes a heap snapshot (a full GC first, as V8 always does) and returns its path. */
    snapshot: (path) => writeHeapSnapshot(String(path)),
    /**
     * Starts V8's sampling heap profiler, counting every allocation, even those collected since; with
     * `{ promoted: true }`, only those that outlived the young generation (collected by a full GC or
     * still alive): what fills the old generation between full collections.
     */
    async allocationsStart(arg) {
      inspector ??= new Session();
      inspector.connect();
      await inspector.post('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !arg?.promoted });
    },
    /** Stops it and writes the profile (a .heapprofile, as DevTools reads) to `path`. */
    async allocationsStop(path) {
      const { profile } = await inspector.post('HeapProfiler.stopSampling');
      inspector.disconnect();
      writeFileSync(String(path), JSON.stringify(profile));
      return path;
    },
    /** Stops as Kubernetes stops the pod: SIGTERM, then the bot's own shutdown. */
    stop: () => void process.kill(process.pid, 'SIGTERM'),
  },
  ready(),
);
