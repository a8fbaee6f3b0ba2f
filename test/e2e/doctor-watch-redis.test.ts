import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { eventually, startStack, type Stack } from '../support/stack.js';

/** The scheduled doctor's channel of this test. */
const watchChannel = 'C0DOCTORREDIS';

describe('the scheduled doctor when Redis goes away during its scans', () => {
  let redis: OwnRedis;
  let stack: Stack;
  beforeAll(async () => {
    redis = await startOwnRedis();
    stack = await startStack('watch-redis', { redisUrl: redis.url, hideMarkers: true, doctorChannel: watchChannel, env: { PLATFORM_MEDIC_DOCTOR_EVERY_OVERRIDE_SECONDS: '1' } });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  const topLevel = () => stack.fake.messages(watchChannel).filter((m) => !m.thread_ts || m.thread_ts === m.ts);

  it('keeps scanning once Redis is back (it died under a scan waiting for its doctor), says what it lost once, and shows no connection error in the channel', async () => {
    await stack.fake.waitFor(() => topLevel().find((m) => m.text.startsWith('The scheduled doctor watches sim')), { timeoutMs: 20_000 });
    // Mid-scan: with no worker, a scan's doctor job waits in the queue; Redis dies under it.
    await stack.killWorker();
    await eventually(async () => (await stack.queue.getJobs(['waiting'])).some((j) => j.name === 'doctor'), { what: "a scan's doctor waiting" });
    await redis.kill();
    await new Promise((r) => setTimeout(r, 3_000));
    await redis.start();
    await stack.startWorker();
    // Redis came back empty: the watch has no record, says so once, and scans on.
    await stack.fake.waitFor(() => topLevel().filter((m) => m.text.startsWith('The scheduled doctor watches sim'))[1], { timeoutMs: 40_000 });
    const from = await stack.bot.watch!.scans('sim');
    await eventually(async () => (await stack.bot.watch!.scans('sim')) >= from + 2, { what: 'two more scans', timeoutMs: 30_000 });
    await stack.sim.break('rollout-invalid-json');
    await stack.fake.waitFor(() => topLevel().find((m) => m.text.startsWith('New on sim:') && m.text.includes('(rollout-invalid-json)')), { timeoutMs: 30_000 });
    expect(topLevel().filter((m) => m.text.startsWith('The scheduled doctor watches sim'))).toHaveLength(2);
    for (const m of stack.fake.messages(watchChannel)) expect(m.text, m.text).not.toMatch(/ECONNREFUSED|Connection is closed|Stream isn't writeable|maxRetriesPerRequest/);
  });
});
