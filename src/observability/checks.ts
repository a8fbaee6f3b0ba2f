import type { webApi } from '@slack/bolt';
import { Redis } from 'ioredis';

/** One dependency /readyz asks about; throws (with a short reason) when it is not usable. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}

/** Rejects when `p` has not settled within `ms`. */
export function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Remembers a check's last answer: a success for `okMs`, a failure for `failMs`. Probes every few
 * seconds from several replicas must not turn into as many calls to Slack or the API server, and a
 * recovery should be seen sooner than a success expires.
 */
export function cached(check: ReadinessCheck, okMs: number, failMs = Math.min(okMs, 5_000), now = Date.now): ReadinessCheck {
  let last: { at: number; error?: Error } | undefined;
  let pending: Promise<void> | undefined;
  return {
    name: check.name,
    async check() {
      if (last && now() - last.at < (last.error ? failMs : okMs)) {
        if (last.error) throw last.error;
        return;
      }
      // Concurrent probes share one call.
      pending ??= check.check().then(
        () => {
          last = { at: now() };
        },
        (err: unknown) => {
          last = { at: now(), error: err instanceof Error ? err : new Error(String(err)) };
        },
      ).finally(() => {
        pending = undefined;
      });
      await pending;
      if (last?.error) throw last.error;
    },
  };
}

/**
 * Redis answers PING within a second. The connection must not queue commands while it is down
 * (`enableOfflineQueue: false`), or the PING would wait for a reconnect instead of failing.
 */
export function redisCheck(redis: Redis, timeoutMs = 1_000): ReadinessCheck {
  return { name: 'redis', check: () => within(timeoutMs, 'redis PING', pingWhenReady(redis, timeoutMs)) };
}

/** PING once the connection is (re)established: the first probe may come before it connects. */
async function pingWhenReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status !== 'ready') {
    let onReady: (() => void) | undefined;
    // The listener goes when the probe gives up, so a long outage does not pile them up.
    const ready = new Promise<void>((resolve) => {
      onReady = resolve;
      redis.once('ready', resolve);
    });
    const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([ready, gaveUp]);
    redis.off('ready', onReady!);
  }
  await redis.ping();
}

/** Slack's Web API accepts the bot token (auth.test), checked at most once a minute. */
export function slackCheck(client: webApi.WebClient, timeoutMs = 3_000): ReadinessCheck {
  return cached(
    {
      name: 'slack',
      async check() {
        const res = await within(timeoutMs, 'slack auth.test', client.auth.test());
        if (!res.ok) throw new Error(`slack auth.test: ${res.error ?? 'not ok'}`);
      },
    },
    60_000,
  );
}

/**
 * A Redis connection of its own for probes and queue depth: it fails a command at once while Redis
 * is down instead of queueing it, and never blocks the queues' own connections.
 */
export function connectProbeRedis(url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1_000, lazyConnect: false });
  // Outages are reported by /readyz; the connection reconnects by itself.
  redis.on('error', () => undefined);
  return redis;
}
