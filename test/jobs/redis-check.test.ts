import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { medicArgs } from '../support/medic-process.js';
import { freePort, startOwnRedis, type OwnRedis } from '../support/own-redis.js';

/**
 * The check of Redis at start (assertRedisReachable): what a person is told for each way REDIS_URL can
 * be wrong, and when the terminal may start a private redis-server instead of the Redis they named.
 */

/** Runs `platform-medic …` as a user would, with only the given environment and `quit` typed in. */
function medic(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, medicArgs(...args), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PLATFORM_MEDIC_CONFIG: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
    input: 'quit\n',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const password = 's3cret-of-the-test';
let locked: OwnRedis;
beforeAll(async () => {
  locked = await startOwnRedis({ password });
});
afterAll(async () => {
  await locked?.stop();
});

describe('the terminal falls back to a private redis-server only where nothing answers', { timeout: 120_000 }, () => {
  it('given a Redis that refuses the login, when the terminal starts, then it stops on the refusal and does not replace that Redis', () => {
    const r = medic(['terminal'], { REDIS_URL: `redis://:wrong-${password}@127.0.0.1:${locked.port}` });
    expect(r.out).not.toContain('starting a private redis-server');
    expect(r.err).toContain('refused');
    expect(r.code).toBe(1);
  });

  it('given an address where nothing listens, when the terminal starts, then it says so and starts a private redis-server', async () => {
    const port = await freePort();
    const r = medic(['terminal'], { REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(r.out).toContain(`Redis is not reachable at redis://127.0.0.1:${port}; starting a private redis-server for this session.`);
    expect(r.code).toBe(0);
  });
});
