import { Redis } from 'ioredis';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
import { startFix } from '../../src/handlers/start-fix.js';
import { testRedisUrl } from '../support/test-redis.js';

/**
 * The one decision start-fix makes about an error: whether it means "the queue is unreachable". Given
 * what the coordinator really throws when Redis is gone (a closed ioredis connection's error), the
 * person is told that, and anything else is an internal error; the coordinator is injected.
 */
function depsThrowing(err: unknown): HandlerDeps {
  return {
    config: loadConfig({ env: {} }),
    logger: pino({ level: 'silent' }),
    coordinator: { requestFix: () => Promise.reject(err) },
    outbox: { remedy: { postMessage: () => Promise.resolve({ ok: true, ts: '1.1' }) } },
  } as unknown as HandlerDeps;
}

const ask = { entryId: 'build-logs', user: 'U0REQUESTER', channel: 'C0PLATFORM' };

describe('starting a fix when something fails', () => {
  it('a closed Redis connection is "the queue (Redis) is unreachable", a bug is an internal error', async () => {
    const closed = new Redis(testRedisUrl);
    await closed.quit();
    const gone = await closed.ping().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(await startFix(depsThrowing(gone), ask)).toBe('❌ Could not queue the plan: the queue (Redis) is unreachable. Nothing was done; ask again once it is back.');
    expect(await startFix(depsThrowing(new TypeError('x is undefined')), ask)).toBe("❌ Could not start the fix because of an internal error; nothing was done. The bot's log has the details.");
  });
});
