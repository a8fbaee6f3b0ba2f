import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertRedisReachable, RedisUnavailableError } from '../../src/jobs/redis.js';
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

/** The error assertRedisReachable throws for `url`. */
async function refusal(url: string): Promise<RedisUnavailableError> {
  const err: unknown = await assertRedisReachable(url).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(RedisUnavailableError);
  return err as RedisUnavailableError;
}

describe('a Redis that refuses the login', () => {
  it('given no password where one is required, then it says Redis refused the login and how to give the password', async () => {
    const err = await refusal(`redis://127.0.0.1:${locked.port}`);
    expect(err.message).toBe(
      `The Redis at redis://127.0.0.1:${locked.port} answered but refused the login: it requires a password, and REDIS_URL gives none (NOAUTH).\n` +
        `Give the password in REDIS_URL: redis://:PASSWORD@127.0.0.1:${locked.port}, or redis://USER:PASSWORD@127.0.0.1:${locked.port} for an ACL user (percent-encode any @ : / in it).`,
    );
    expect(err.reachable).toBe(true);
  });

  it('given a wrong password, then it says so without printing it, and never advises starting a server', async () => {
    const err = await refusal(`redis://:wrong-${password}@127.0.0.1:${locked.port}/1`);
    expect(err.message).toContain(`The Redis at redis://:***@127.0.0.1:${locked.port}/1 answered but refused the login: it does not accept the user and password REDIS_URL gives (WRONGPASS).`);
    expect(err.message).toContain(`Correct the password in REDIS_URL: redis://:PASSWORD@127.0.0.1:${locked.port}/1, or redis://USER:PASSWORD@127.0.0.1:${locked.port}/1 for an ACL user`);
    expect(err.message).not.toContain(password);
    expect(err.message).not.toContain('redis-server');
  });

  it('given an ACL user that does not exist, then it is the same refused login', async () => {
    const err = await refusal(`redis://nobody:${password}@127.0.0.1:${locked.port}`);
    expect(err.message).toContain('refused the login: it does not accept the user and password REDIS_URL gives (WRONGPASS)');
    expect(err.message).not.toContain(password);
  });
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
