import { afterEach, describe, expect, it } from 'vitest';
import { workerConnections } from '../../src/jobs/worker.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';

describe("the worker's own writes across a Redis restart", () => {
  let redis: OwnRedis | undefined;
  afterEach(async () => {
    await redis?.stop();
  });

  it('waits for Redis to come back instead of failing the write (the step ledger, a wait’s continuation)', { timeout: 60_000 }, async () => {
    // Given the worker's connections to a Redis that is then killed for two seconds,
    redis = await startOwnRedis();
    const { queueConnection, workerConnection } = workerConnections(redis.url);
    queueConnection.on('error', () => undefined);
    workerConnection.on('error', () => undefined);
    try {
      await queueConnection.set('ledger', 'step 1 done');
      await redis.kill();
      // when the worker writes while Redis is away (before: MaxRetriesPerRequestError after two
      // reconnection attempts, and the remedy ended with "Internal error in the worker"),
      const write = queueConnection.set('ledger', 'step 2 done');
      const outcome = write.then(
        () => 'written',
        (err: Error) => `failed: ${err.name}`,
      );
      await new Promise((r) => setTimeout(r, 2_000));
      await redis.start();
      // then the write lands once Redis is back (empty after its restart, so only this write is there).
      expect(await outcome).toBe('written');
      expect(await queueConnection.get('ledger')).toBe('step 2 done');
    } finally {
      queueConnection.disconnect();
      workerConnection.disconnect();
    }
  });
});
