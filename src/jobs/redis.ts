import { Redis, type RedisOptions } from 'ioredis';

/** Redis could not be reached; the message says how to start one. Never contains a password. */
export class RedisUnavailableError extends Error {
  constructor(readonly url: string, cause: string) {
    super(
      `Cannot reach Redis at ${url} (${cause}).\n` +
        'platform-medic keeps its queues in Redis. Start one, for example:\n' +
        '  redis-server --daemonize yes --port 6379 --save "" --appendonly no   (Debian: apt-get install redis-server)\n' +
        'or point REDIS_URL at a running server.',
    );
    this.name = 'RedisUnavailableError';
  }
}

/** The URL without its password, for messages and logs. */
export function safeRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable REDIS_URL)';
  }
}

/**
 * A connection for BullMQ. Workers need `maxRetriesPerRequest: null` (blocking commands); the bot's
 * queue connections fail fast instead, so a user hears "Redis is down" rather than waiting forever.
 */
export function connectRedis(url: string, purpose: 'worker' | 'client'): Redis {
  const options: RedisOptions =
    purpose === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : { maxRetriesPerRequest: 2, connectTimeout: 3_000 };
  return new Redis(url, options);
}

/** Connects once and pings, within a short time; throws RedisUnavailableError otherwise. */
export async function assertRedisReachable(url: string, timeoutMs = 2_000): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).message;
    throw new RedisUnavailableError(safeRedisUrl(url), code);
  } finally {
    client.disconnect();
  }
}
