import type { Redis } from 'ioredis';

/**
 * Deletes every key under a prefix (SCAN, not KEYS, so a large Redis is not blocked). For prefixes
 * that belong to one session alone: a terminal session's own queues, a test's.
 */
export async function deletePrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
