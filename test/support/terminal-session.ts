import { PassThrough, Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { SimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig } from '../../src/config.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { startClusterWorker, type ClusterWorker } from '../../src/jobs/worker.js';
import { runTerminal } from '../../src/terminal/session.js';
import { testRedisUrl, uniquePrefix } from './stack.js';

const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));

/**
 * Terminal sessions fed a script through a pipe (as `printf … | npm start` would), each on the given
 * simulated cluster with its own worker and queue prefix; `cleanup()` (in afterEach) closes the
 * workers and clusters and removes the prefixes' keys.
 */
export function pipedSessions(prefix: string, options: { forceClose?: boolean } = {}) {
  const workers: ClusterWorker[] = [];
  const prefixes: string[] = [];
  const sims: SimulatedCluster[] = [];
  return {
    /** Closes the simulated cluster with the rest at cleanup. */
    own(sim: SimulatedCluster): SimulatedCluster {
      sims.push(sim);
      return sim;
    },
    /** The transcript of a session fed `script`. */
    async run(sim: SimulatedCluster, script: string[]): Promise<string> {
      const config = loadConfig({
        env: {},
        overrides: { redisUrl: testRedisUrl, queuePrefix: uniquePrefix(prefix), clusters: [{ name: 'simulated', kube: { source: 'simulated' }, ...sim.addresses }], defaultCluster: 'simulated', waitOverrideSeconds: 0.2, verifySettleSeconds: 1 },
      });
      prefixes.push(config.queuePrefix);
      workers.push(startClusterWorker({ config, cluster: config.clusters[0]!, kubeConfig: sim.kubeConfig(), logger: silent, pollMs: 50 }));
      const input = new PassThrough();
      let out = '';
      const output = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
      input.end(script.map((l) => `${l}\n`).join(''));
      await runTerminal({ config, logger: silent, input, output, user: 'terminal:alice', describeCluster: () => `symptoms: ${sim.symptoms().join(', ') || 'none'}` });
      return out;
    },
    async cleanup(): Promise<void> {
      await Promise.all(workers.splice(0).map((w) => w.close(options.forceClose)));
      const redis = new Redis(testRedisUrl);
      for (const p of prefixes.splice(0)) await deletePrefix(redis, p);
      redis.disconnect();
      await Promise.all(sims.splice(0).map((s) => s.close()));
    },
  };
}
