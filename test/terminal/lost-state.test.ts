import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig } from '../../src/config.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { startClusterWorker, type ClusterWorker } from '../../src/jobs/worker.js';
import { runTerminal } from '../../src/terminal/session.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';
import { medicArgs } from '../support/medic-process.js';

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
    await sim.break('build-logs');
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

  it('quit and the end of input still end the session when Redis went away during it, saying what is left', async () => {
    // Found by a newcomer's try: after Redis stopped, `quit` (or Ctrl-D) left the session hanging for good.
    // The two endings side by side, each with its own Redis: most of a session's end here is its quit
    // bounds running out (Redis does not answer), which need not be waited out one after the other.
    const endsWith = async (ending: string) => {
      const redis: OwnRedis = await startOwnRedis();
      cleanups.push(() => redis.stop());
      let out = '';
      const child = spawn(process.execPath, medicArgs('terminal'), {
        env: { ...process.env, REDIS_URL: redis.url, PLATFORM_MEDIC_QUEUE_PREFIX: uniquePrefix('away-quit'), PLATFORM_MEDIC_CONFIG: '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      cleanups.push(async () => void child.kill('SIGKILL'));
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      await until(() => out, /platform> /);
      await redis.kill();
      child.stdin!.end(ending);
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]);
      expect(code, out).toBe(0);
      expect(out).toContain("Redis is unreachable, so this session's queues stay in it until they expire (within a day); the next terminal session on this Redis removes them.");
      // Its logs are sentences among the prompts, not JSON records.
      // The first error after the kill is the reset of the open connection or the refusal of a new one.
      expect(out).toMatch(/warning: Redis unreachable \(redis: redis:\/\/127\.0\.0\.1:\d+, err: (?:ECONNREFUSED|ECONNRESET)\)$/m);
      expect(out).not.toContain('{"level"');
    };
    await Promise.all(['quit\n', ''].map(endsWith));
  }, 90_000);

  it('a session killed with SIGKILL mid-wait leaves only keys that expire, and the next session says what was interrupted and removes them', async () => {
    const base = uniquePrefix('sigkill');
    const redis = new Redis(testRedisUrl);
    cleanups.push(async () => {
      await deletePrefix(redis, `${base}-terminal*`);
      redis.disconnect();
    });
    const keysOf = async () => {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await redis.scan(cursor, 'MATCH', `${base}-terminal-*`, 'COUNT', 500);
        cursor = next;
        keys.push(...batch);
      } while (cursor !== '0');
      return keys.sort();
    };
    const terminal = (): { child: ChildProcess; out: () => string } => {
      let out = '';
      const child = spawn(process.execPath, medicArgs('terminal', '--broken', 'build-logs'), {
        // Renewed every second, not every 10 s: the keys BullMQ makes after the first sweep get their expiry sooner.
        env: { ...process.env, REDIS_URL: testRedisUrl, PLATFORM_MEDIC_QUEUE_PREFIX: base, PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS: '600', PLATFORM_MEDIC_SESSION_RENEW_SECONDS: '1', PLATFORM_MEDIC_CONFIG: '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      cleanups.push(async () => void child.kill('SIGKILL'));
      return { child, out: () => out };
    };

    const first = terminal();
    first.child.stdin!.write('fix build-logs\n');
    await until(first.out, /Approve this plan\?/);
    first.child.stdin!.write('a\n');
    await until(first.out, /⏳ Step 3 of 4: Waiting 10 minutes/);
    const id = /\[build-logs (r\w+)\] ⏳/.exec(first.out())![1]!;
    const withoutExpiry = async () => (await Promise.all((await keysOf()).map(async (k) => [k, await redis.pttl(k)] as const))).filter(([, ttl]) => ttl < 0).map(([k]) => k);
    // The product's own keys expire from the start; the queues' keys (BullMQ's, which set none) are
    // given one by the session within its renewal interval: wait for that, as a session left idle would.
    const queueKey = /^[^:]+:(cluster-[^:]+|bot):/;
    expect((await withoutExpiry()).filter((k) => !queueKey.test(k))).toEqual([]);
    for (const deadline = Date.now() + 30_000; (await withoutExpiry()).length > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await exited;

    // Killed: every key it left expires by itself…
    const left = await keysOf();
    expect(left.length).toBeGreaterThan(20);
    expect(await withoutExpiry()).toEqual([]);

    const second = terminal();
    second.child.stdin!.end('quit\n');
    await new Promise((r) => second.child.once('exit', r));
    expect(second.out()).toMatch(
      new RegExp(`An earlier terminal session \\(process ${first.child.pid}, started \\d\\d:\\d\\d UTC\\) ended without quitting\\. Its remedy build-logs \\(${id}\\) was interrupted during a wait of the guide; nothing more of it will run, and steps already done stay done\\. Type "fix build-logs" to plan it again\\.`),
    );
    // …and the next session removed them at once.
    expect((await keysOf()).filter((k) => left.includes(k))).toEqual([]);
  }, 90_000);
});
