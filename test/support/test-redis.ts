/**
 * The Redis the tests share, and a key prefix of a test's own on it. Kept apart from stack.ts, which
 * loads the whole product (Bolt, BullMQ, the simulated cluster): a test that needs only these does not
 * pay seconds to import it.
 */

/** Redis of the tests: REDIS_URL, or the local default that .ci/run starts. */
export const testRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A unique key prefix, so tests sharing one Redis never see each other's queues. */
export function uniquePrefix(name: string): string {
  return `test-${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
