import { spawnSync } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
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
let open: OwnRedis;
beforeAll(async () => {
  [locked, open] = await Promise.all([startOwnRedis({ password }), startOwnRedis()]);
});
afterAll(async () => {
  await Promise.all([locked?.stop(), open?.stop()]);
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

/** A plain TCP server on a free loopback port that treats each connection as `serve` does: not Redis. */
async function notRedis(serve: (socket: Socket) => void): Promise<{ port: number; server: Server }> {
  const server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe('something that is not Redis at the address', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));
  const start = async (serve: (socket: Socket) => void) => {
    const listening = await notRedis(serve);
    servers.push(listening.server);
    return listening.port;
  };

  it.each([
    ['closes the connection at the first bytes, as PostgreSQL does', (s: Socket) => s.once('data', () => s.destroy()), 'it closed the connection without an answer'],
    ['answers in another protocol, as a web server does', (s: Socket) => s.once('data', () => s.end('HTTP/1.1 400 Bad Request\r\n\r\n')), "its answer is not in Redis's protocol"],
  ])('given a server that %s, then it says something answers there but it is not Redis, and to check the port', async (_, serve, what) => {
    const port = await start(serve);
    const err = await refusal(`redis://127.0.0.1:${port}`);
    expect(err.message).toBe(
      `Something answers at 127.0.0.1:${port}, but it is not Redis (${what}).\n` +
        `Check the port in REDIS_URL (redis://127.0.0.1:${port}): Redis listens on 6379 unless configured otherwise; a Redis that expects TLS needs rediss://.`,
    );
    expect(err.reachable).toBe(true);
  });

  it('given a server that accepts and never answers, then the check ends within its time and says the same', { timeout: 20_000 }, async () => {
    const port = await start(() => undefined);
    const started = Date.now();
    const err = await assertRedisReachable(`redis://127.0.0.1:${port}`, 500).then(() => undefined, (e: unknown) => e as RedisUnavailableError);
    expect(err?.message).toContain(`Something answers at 127.0.0.1:${port}, but it is not Redis (it did not answer within 0.5 s).`);
    // 0.5 s asked; the bound only tells the check's own limit from a hang.
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('given such a server, when the terminal starts, then it stops there rather than starting a private redis-server', { timeout: 120_000 }, async () => {
    const port = await start((s) => s.once('data', () => s.destroy()));
    const r = medic(['terminal'], { REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(r.out).not.toContain('starting a private redis-server');
    expect(r.err).toContain(`Something answers at 127.0.0.1:${port}, but it is not Redis`);
    expect(r.code).toBe(1);
  });
});

describe('a password given to a Redis that requires none', () => {
  it('given such a password, then the check passes, returns the URL without it and one line saying so', async () => {
    const reached = await assertRedisReachable(`redis://:${password}@127.0.0.1:${open.port}/1`);
    expect(reached).toEqual({
      url: `redis://127.0.0.1:${open.port}/1`,
      note: `REDIS_URL gives a password, but the Redis at redis://127.0.0.1:${open.port}/1 requires none; it is not sent. Remove it from REDIS_URL, or set one on that Redis (requirepass).`,
    });
  });

  it('given such a password, when a terminal session runs, then the person reads one line about it, not one per connection', { timeout: 120_000 }, () => {
    const r = medic(['terminal'], { REDIS_URL: `redis://:${password}@127.0.0.1:${open.port}` });
    const said = `${r.out}${r.err}`.split('\n').filter((line) => /password/i.test(line) && !line.includes('GRAFANA_PASSWORD'));
    expect(said).toEqual([`REDIS_URL gives a password, but the Redis at redis://127.0.0.1:${open.port} requires none; it is not sent. Remove it from REDIS_URL, or set one on that Redis (requirepass).`]);
    expect(r.code).toBe(0);
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
