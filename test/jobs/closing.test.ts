import { QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { closeQueueEvents, closeWorker, connectRedis } from '../../src/jobs/redis.js';
import { settlesWithin } from '../../src/observability/shutdown.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';

/**
 * What the bot's and the worker's stops close, stopped while Redis restarts: their connections are
 * between two attempts to reconnect. BullMQ's close() alone never returned then, and the process
 * waited out its shutdown bound (the bot's then exits with 1).
 */
describe('closing the queues while Redis restarts', () => {
  let redis: OwnRedis | undefined;
  const connections: Redis[] = [];
  afterEach(async () => {
    for (const c of connections.splice(0)) c.disconnect();
    await redis?.stop();
  });
  /** A connection as the product makes them for BullMQ; BullMQ does not close what it is handed. */
  const connect = (url: string) => {
    const c = connectRedis(url, 'worker');
    c.on('error', () => undefined);
    connections.push(c);
    return c;
  };

  /** Closes what `open` returns while Redis is away, and starts Redis half a second later; true when the close settled within 8 s. */
  async function closedOnceBack(open: (url: string) => Promise<() => Promise<void>>): Promise<boolean> {
    redis = await startOwnRedis();
    const close = await open(redis.url);
    await redis.kill();
    // Long enough for the connections to wait between attempts to reconnect.
    await new Promise((r) => setTimeout(r, 2_000));
    const closed = settlesWithin(close(), 8_000);
    await new Promise((r) => setTimeout(r, 500));
    await redis.start();
    return closed;
  }

  it('a worker (the deadlines of the bot, a cluster’s worker) closes once Redis is back', { timeout: 30_000 }, async () => {
    expect(
      await closedOnceBack(async (url) => {
        const worker = new Worker('closing', async () => undefined, { connection: connect(url), prefix: 'closing' });
        worker.on('error', () => undefined);
        await worker.waitUntilReady();
        return () => closeWorker(worker);
      }),
    ).toBe(true);
  });

  it('a reader of a queue’s events (the bot’s feed, a doctor’s answer) closes once Redis is back', { timeout: 30_000 }, async () => {
    expect(
      await closedOnceBack(async (url) => {
        const events = new QueueEvents('closing', { connection: connect(url), prefix: 'closing' });
        events.on('error', () => undefined);
        await events.waitUntilReady();
        return () => closeQueueEvents(events);
      }),
    ).toBe(true);
  });
});
