import { PassThrough, Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { SimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig, type Config } from '../../src/config.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { startClusterWorker, type ClusterWorker } from '../../src/jobs/worker.js';
import { runTerminal, stripControl } from '../../src/terminal/session.js';
import { testRedisUrl, uniquePrefix } from './test-redis.js';

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
  /** The session's configuration (the simulated cluster as npm start configures it), with its worker running. */
  const withWorker = (sim: SimulatedCluster, waitSeconds = 0.2): Config => {
    const config = loadConfig({
      env: {},
      overrides: { redisUrl: testRedisUrl, queuePrefix: uniquePrefix(prefix), clusters: [{ name: 'simulated', kube: { source: 'simulated' }, ...sim.addresses }], defaultCluster: 'simulated', waitOverrideSeconds: waitSeconds, verifySettleSeconds: 1 },
    });
    prefixes.push(config.queuePrefix);
    workers.push(startClusterWorker({ config, cluster: config.clusters[0]!, kubeConfig: sim.kubeConfig(), logger: silent, pollMs: 50 }));
    return config;
  };
  return {
    /** Closes the simulated cluster with the rest at cleanup. */
    own(sim: SimulatedCluster): SimulatedCluster {
      sims.push(sim);
      return sim;
    },
    /** The transcript of a session fed `script`. */
    async run(sim: SimulatedCluster, script: string[]): Promise<string> {
      const config = withWorker(sim);
      const input = new PassThrough();
      let out = '';
      const output = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
      input.end(script.map((l) => `${l}\n`).join(''));
      await runTerminal({ config, logger: silent, input, output, user: 'terminal:alice', describeCluster: () => `symptoms: ${sim.symptoms().join(', ') || 'none'}` });
      return out;
    },
    /**
     * A session typed into one line at a time, as a person does at a terminal (its input stays open):
     * `type` a line, wait `until` the transcript shows something, then `type('quit')` and await `ended`.
     * `waitSeconds` replaces the guide's waits (0.2 s unless a test needs a remedy to stay running).
     */
    typed(sim: SimulatedCluster, waitSeconds?: number) {
      const config = withWorker(sim, waitSeconds);
      const input = new PassThrough() as PassThrough & { isTTY: boolean };
      input.isTTY = true;
      let out = '';
      const output = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
      const text = () => stripControl(out);
      const ended = runTerminal({ config, logger: silent, input, output, user: 'terminal:alice', describeCluster: () => '' });
      return {
        text,
        ended,
        /** One line, then a pause longer than the one that makes lines a single paste. */
        async type(line: string): Promise<void> {
          input.write(`${line}\n`);
          await new Promise((r) => setTimeout(r, 150));
        },
        /** Ctrl-D at the terminal: the input ends. */
        end(): void {
          input.end();
        },
        /** Resolves once the transcript matches, or fails with what it was. */
        async until(pattern: RegExp, timeoutMs = 30_000): Promise<void> {
          for (const deadline = Date.now() + timeoutMs; !pattern.test(text()); ) {
            if (Date.now() > deadline) throw new Error(`never saw ${pattern}; the terminal showed:\n${text()}`);
            await new Promise((r) => setTimeout(r, 50));
          }
        },
      };
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
