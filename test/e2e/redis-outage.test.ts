import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { startFakeSlackApi } from '../fakes/slack-api.js';
import { startOwnRedis } from '../support/own-redis.js';
import { signingSecret } from '../support/slack-workspace.js';
import { uniquePrefix } from '../support/test-redis.js';
import { medicArgs } from '../support/medic-process.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f().catch(() => undefined);
});

/** A process of the product as deployed; its whole output, line by line. */
function run(args: string[], env: Record<string, string>): { child: ChildProcess; lines: () => string[] } {
  let out = '';
  const child = spawn(process.execPath, medicArgs(...args), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
  });
  return { child, lines: () => out.split('\n').filter((l) => l !== '') };
}

async function until(what: string, ok: () => boolean, show: () => string[], timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !ok(); ) {
    if (Date.now() > deadline) throw new Error(`never saw ${what}; the output was:\n${show().join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const msg = (line: string): string | undefined => {
  try {
    return (JSON.parse(line) as { msg?: string }).msg;
  } catch {
    return undefined;
  }
};

/**
 * A Redis of the test's own, a simulated cluster and the fake Slack; the configuration file names the cluster
 * (with `clusterKeys` added); `env` is the bot's and worker's environment on them, with a queue prefix of its own.
 */
async function outageStack(name: string, clusterKeys = ''): Promise<{ redis: Awaited<ReturnType<typeof startOwnRedis>>; sim: Awaited<ReturnType<typeof startSimulatedCluster>>; fake: Awaited<ReturnType<typeof startFakeSlackApi>>; configFile: string; prefix: string; env: Record<string, string> }> {
  const redis = await startOwnRedis();
  cleanups.push(() => redis.stop());
  const sim = await startSimulatedCluster();
  cleanups.push(() => sim.close());
  const fake = await startFakeSlackApi({ rateLimit: false });
  cleanups.push(() => fake.close());
  const dir = mkdtempSync(join(tmpdir(), `medic-${name}-`));
  await sim.writeKubeconfig(join(dir, 'kubeconfig'));
  const configFile = join(dir, 'platform-medic.yaml');
  writeFileSync(configFile, `clusters:\n  - name: sim\n    kube: { source: kubeconfig, path: ${join(dir, 'kubeconfig')} }\n${clusterKeys}`);
  const prefix = uniquePrefix(name);
  const env = {
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    REDIS_URL: redis.url,
    PLATFORM_MEDIC_CONFIG: configFile,
    PLATFORM_MEDIC_QUEUE_PREFIX: prefix,
    PORT: '0',
    HEALTH_PORT: '0',
    LOG_LEVEL: 'info',
  };
  return { redis, sim, fake, configFile, prefix, env };
}

describe('a Redis outage in the logs', () => {
  it('is logged once when it starts and once when it ends, by the bot and by a worker, with no raw stacks in between', async () => {
    const { redis, env } = await outageStack('outage');
    const bot = run(['bot'], env);
    const worker = run(['worker', '--cluster', 'sim'], env);
    await until('the bot start', () => bot.lines().some((l) => msg(l) === 'platform-medic bot started'), bot.lines);
    await until('the worker start', () => worker.lines().some((l) => msg(l) === 'worker started'), worker.lines);
    const from = { bot: bot.lines().length, worker: worker.lines().length };

    // Given Redis goes away for a while (every connection retries many times meanwhile)…
    await redis.kill();
    await until('the outage logged', () => [bot, worker].every((p) => p.lines().some((l) => msg(l) === 'Redis unreachable')), () => [...bot.lines(), ...worker.lines()]);
    await new Promise((r) => setTimeout(r, 6_000));
    await redis.start();
    await until('the recovery logged', () => [bot, worker].every((p) => p.lines().some((l) => msg(l) === 'Redis reachable again')), () => [...bot.lines(), ...worker.lines()]);
    // Anything a lagging connection would still say has time to arrive.
    await new Promise((r) => setTimeout(r, 2_000));

    // …then each process said it once when it started and once when it ended, and nothing else.
    for (const [name, p] of [['bot', bot], ['worker', worker]] as const) {
      const during = p.lines().slice(from[name]);
      expect(during.filter((l) => msg(l) === undefined), `${name}: lines that are not log records`).toEqual([]);
      const outage = new Set(['Redis unreachable', 'Redis still unreachable', 'Redis reachable again']);
      expect(during.map(msg).filter((m) => outage.has(m!)), name).toEqual(['Redis unreachable', 'Redis reachable again']);
      // This Redis comes back empty: the bot says so once (it had no remedy open); nothing else is logged.
      expect(during.map(msg).filter((m) => !outage.has(m!)), name).toEqual(name === 'bot' ? ['Redis lost its data; ending the open remedies this process knows'] : []);
      // The code the outage is first seen by: a connection that was open when Redis died is reset, one opened
      // after it is refused; which comes first is the kernel's timing (a fresh-clone CI run saw ECONNRESET).
      expect(JSON.parse(during[0]!)).toMatchObject({ level: 40, redis: redis.url, err: expect.stringMatching(/^(?:ECONNREFUSED|ECONNRESET)$/) });
    }
  }, 90_000);
  it('with a doctor under way when Redis goes: the bot still writes only log records, no raw library errors', async () => {
    // The scheduled doctor every second, and no worker: each scan's doctor waits in the queue for one.
    const { redis, prefix, env } = await outageStack('outage-doctor', '    doctor: { channel: C0OUTAGEDOC }\n');
    const bot = run(['bot'], { ...env, PLATFORM_MEDIC_DOCTOR_EVERY_OVERRIDE_SECONDS: '1' });
    await until('the bot start', () => bot.lines().some((l) => msg(l) === 'platform-medic bot started'), bot.lines);
    const probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined);
    cleanups.push(async () => probe.disconnect());
    const waiting = async () => (await probe.keys(`${prefix}:*:wait`).catch(() => [])).length > 0 && (await probe.llen((await probe.keys(`${prefix}:*:wait`))[0]!)) > 0;
    for (const deadline = Date.now() + 20_000; !(await waiting()); ) {
      if (Date.now() > deadline) throw new Error(`no doctor job ever waited; the bot said:\n${bot.lines().join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const from = bot.lines().length;

    await redis.kill();
    await until('the outage logged', () => bot.lines().some((l) => msg(l) === 'Redis unreachable'), bot.lines);
    await new Promise((r) => setTimeout(r, 4_000));
    await redis.start();
    await until('the recovery logged', () => bot.lines().some((l) => msg(l) === 'Redis reachable again'), bot.lines);
    await new Promise((r) => setTimeout(r, 2_000));

    const during = bot.lines().slice(from);
    expect(during.filter((l) => msg(l) === undefined), 'lines that are not log records').toEqual([]);
  }, 90_000);
});
