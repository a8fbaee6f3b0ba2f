import { PassThrough, Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig } from '../../src/config.js';
import { startClusterWorker, type ClusterWorker } from '../../src/jobs/worker.js';
import { runTerminal } from '../../src/terminal/session.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { uniquePrefix } from '../support/stack.js';

const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));

/** Resolves once `text()` matches, or fails with what it was. */
async function until(text: () => string, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !pattern.test(text()); ) {
    if (Date.now() > deadline) throw new Error(`never saw ${pattern}; the terminal showed:\n${text()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f().catch(() => undefined);
});

describe('the terminal when Redis loses its state', () => {
  it('Redis restarted empty during a wait: the session says so, and audit, cancel and quit agree', async () => {
    const redis: OwnRedis = await startOwnRedis();
    cleanups.push(() => redis.stop());
    const sim: SimulatedCluster = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    cleanups.push(() => sim.close());
    sim.break('build-logs');
    const config = loadConfig({
      env: {},
      overrides: { redisUrl: redis.url, queuePrefix: uniquePrefix('terminal-lost'), clusters: [{ name: 'simulated', kube: { source: 'simulated' } }], defaultCluster: 'simulated', waitOverrideSeconds: 600 },
    });
    const worker: ClusterWorker = startClusterWorker({ config, cluster: config.clusters[0]!, kubeConfig: sim.kubeConfig(), logger: silent, pollMs: 50 });
    cleanups.push(() => worker.close(true));
    const input = new PassThrough();
    let out = '';
    const output = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
    // Piped lines are taken in step with the remedy: these wait until it no longer runs.
    input.end(['fix build-logs', 'a', 'audit', 'cancel', 'quit'].map((l) => `${l}\n`).join(''));
    const session = runTerminal({ config, logger: silent, input, output, user: 'terminal:alice', describeCluster: () => '' });

    await until(() => out, /⏳ Step 3 of 4: Waiting 10 minutes/);
    await redis.kill();
    await redis.start();

    await until(() => out, /state was lost/);
    await session;
    expect(out).toMatch(
      /\[build-logs r\w+\] ❌ This remedy's state was lost: Redis, which keeps the queues, lost its data \(it restarted without persistence, or was flushed\)\. Nothing more of this remedy will run; steps already done stay done\. Plan again to start this stage afresh\./,
    );
    expect(out).toMatch(/Plan again\? \[p\]lan again \/ \[s\]top/);
    expect(out).toMatch(/· lost build-logs on simulated \(r\w+\)/);
    expect(out).toContain("Nothing to cancel: this remedy's state was lost, and nothing more of it will run.");
    // quit quits at once: no remedy is said to be running.
    expect(out).not.toContain('A remedy is still running');
  }, 90_000);
});
