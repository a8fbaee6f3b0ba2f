import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisOutageLog } from '../../src/jobs/redis-outage.js';
import { startOwnRedis } from '../support/own-redis.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f().catch(() => undefined);
});

describe('the Redis outage log', () => {
  it('says an outage once when it starts, at most once a minute while it lasts, and once when it ends', async () => {
    const redis = await startOwnRedis();
    cleanups.push(() => redis.stop());
    const lines: { msg: string; forSeconds?: number; afterSeconds?: number }[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (c, _e, cb) => (lines.push(JSON.parse(c.toString())), cb()) }));
    // The clock is the test's: each connection error happens at the minute the test says.
    let clock = 0;
    const log = new RedisOutageLog({ logger, redis: redis.url, now: () => clock });
    // Two connections retrying quickly, as a process's queue and worker connections do.
    const connections = [0, 1].map(() => new Redis(redis.url, { retryStrategy: () => 20 }));
    for (const c of connections) {
      log.watchConnection(c);
      cleanups.push(async () => c.disconnect());
    }
    await Promise.all(connections.map((c) => new Promise((r) => (c.status === 'ready' ? r(undefined) : c.once('ready', r)))));

    let errors = 0;
    for (const c of connections) c.on('error', () => (errors += 1));
    const errorsAt = async (ms: number, count: number) => {
      clock = ms;
      const target = errors + count;
      while (errors < target) await new Promise((r) => setTimeout(r, 5));
    };
    await redis.kill();
    await errorsAt(0, 10);
    await errorsAt(30_000, 10);
    await errorsAt(61_000, 10);
    await errorsAt(90_000, 10);
    await errorsAt(125_000, 10);
    expect(log.down).toBe(true);
    clock = 130_000;
    await redis.start();
    while (log.down) await new Promise((r) => setTimeout(r, 5));

    expect(lines.map((l) => [l.msg, l.forSeconds ?? l.afterSeconds])).toEqual([
      ['Redis unreachable', undefined],
      ['Redis still unreachable', 61],
      ['Redis still unreachable', 125],
      ['Redis reachable again', 130],
    ]);
  });
});
