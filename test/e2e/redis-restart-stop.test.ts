import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { settlesWithin } from '../../src/observability/shutdown.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { eventually, startStack } from '../support/stack.js';

/** Kills Redis and waits until `log` says so, and until the connections wait between attempts to reconnect. */
async function redisGone(redis: OwnRedis, log: () => string): Promise<void> {
  await redis.kill();
  await eventually(async () => log().includes('Redis unreachable'), { what: 'the log to say Redis is gone' });
  await new Promise((r) => setTimeout(r, 3_000));
}

describe('stopping the worker just after its Redis restarted empty', () => {
  // Found by redis-away-paste.test.ts taking 28 s: the worker's stop waited out its whole bound, then said a step was
  // released, though none was running.
  it('stops, exits 0, and says nothing of a running step', async () => {
    const redis = await startOwnRedis();
    // A short bound: a stop that hangs shows as the warning after 6 s rather than 23.
    const stack = await startStack('redis-restart-stop', { redisUrl: redis.url, env: { PLATFORM_MEDIC_SHUTDOWN_SECONDS: '8' } });
    let away = false;
    try {
      away = true;
      await redisGone(redis, stack.workerLog);
      await redis.start();
      away = false;
      // Stopped as Redis comes back: the connections are between two attempts to reconnect.
      const { code } = await stack.terminateWorker();
      expect(code).toBe(0);
      expect(stack.workerLog()).toContain('"msg":"stopped"');
      expect(stack.workerLog()).not.toContain('did not finish in time');
    } finally {
      if (away) await redis.start();
      await stack.stop();
      await redis.stop();
    }
  }, 60_000);
});

describe('stopping the bot while its Redis restarts', () => {
  it('stops within its bound once Redis is back', async () => {
    const redis = await startOwnRedis();
    let botLog = '';
    const stack = await startStack('redis-restart-stop-bot', {
      redisUrl: redis.url,
      env: { PLATFORM_MEDIC_SHUTDOWN_SECONDS: '8', PLATFORM_MEDIC_SHUTDOWN_DRAIN_SECONDS: '0' },
      botLog: new Writable({ write: (c: Buffer, _e, cb) => ((botLog += c.toString()), cb()) }),
    });
    let away = false;
    let stopping = false;
    try {
      // The bot's stop alone: its worker is gone first.
      await stack.terminateWorker();
      away = true;
      await redisGone(redis, () => botLog);
      stopping = true;
      // Past its bound the bot's process exits with 1 ("shutdown took too long").
      const stopped = settlesWithin(stack.stop(), stack.config.shutdownSeconds * 1000);
      await new Promise((r) => setTimeout(r, 500));
      await redis.start();
      away = false;
      expect(await stopped).toBe(true);
    } finally {
      if (away) await redis.start();
      if (!stopping) await stack.stop();
      await redis.stop();
    }
  }, 60_000);
});

describe('stopping the worker while its Redis is away', () => {
  it('exits 0 within its bound and says Redis did not answer, not that a step was released', async () => {
    const redis = await startOwnRedis();
    const stack = await startStack('redis-away-stop', { redisUrl: redis.url, env: { PLATFORM_MEDIC_SHUTDOWN_SECONDS: '3', PLATFORM_MEDIC_SHUTDOWN_DRAIN_SECONDS: '0' } });
    try {
      await redisGone(redis, stack.workerLog);
      const { code } = await stack.terminateWorker();
      expect(code).toBe(0);
      expect(stack.workerLog()).toContain('Redis did not answer in time; stopped without it (no job was running)');
      expect(stack.workerLog()).not.toContain('did not finish in time');
    } finally {
      await redis.start();
      await stack.stop();
      await redis.stop();
    }
  }, 60_000);
});
