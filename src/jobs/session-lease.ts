import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { deletePrefix } from './cleanup.js';
import { finishedStatuses, RequestStore, type RemedyRequest } from './requests.js';

/** Which process holds a session's key prefix. */
export interface SessionOwner {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

/** A session that ended without cleaning up (killed, crashed): what it left open. */
export interface AbandonedSession {
  readonly prefix: string;
  readonly owner: SessionOwner | undefined;
  /** Its remedies that had not ended. */
  readonly open: RemedyRequest[];
}

/** The lease proves a session alive; it is renewed every 10 s (`sessionRenewSeconds`) and lapses 30 s after the last renewal. */
const leaseSeconds = 30;
const defaultRenewMs = 10_000;
/** Keys of a session that have no expiry of their own (the queues') live this long past its last renewal. */
const keepSeconds = 24 * 3600;
const registrySeconds = 30 * 24 * 3600;

/** The sessions under a base prefix that have not been cleaned up, with their owners. */
const registryKey = (base: string) => `${base}-terminal:sessions`;

function alive(owner: SessionOwner | undefined, lease: string | null): boolean {
  if (!lease || !owner) return false;
  // On this machine a dead process is known at once; elsewhere the lease has to lapse.
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Gives every key under the prefix an expiry: the queues' keys have none of their own, so after a
 * crash they would stay forever. Keys with their own expiry (locks, requests) are left as they are;
 * the ones this sweep gave one are renewed while the session lives.
 */
async function sweep(redis: Redis, prefix: string, swept: Set<string>): Promise<void> {
  const seen = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length === 0) continue;
    const ttls = (await keys.reduce((m, k) => m.pttl(k), redis.multi()).exec()) ?? [];
    const renew = redis.multi();
    keys.forEach((key, i) => {
      const ttl = ttls[i]?.[1];
      if (ttl === -1 || (swept.has(key) && typeof ttl === 'number' && ttl > 0)) {
        renew.expire(key, keepSeconds);
        seen.add(key);
      }
    });
    await renew.exec();
  } while (cursor !== '0');
  swept.clear();
  for (const k of seen) swept.add(k);
}

/** A terminal session's hold on its own key prefix. */
export interface SessionLease {
  /** Stops renewing, deletes everything under the prefix and the session's registration. */
  release(): Promise<void>;
}

/**
 * Registers a session's prefix under the base prefix and keeps it alive: a lease renewed every
 * `renewMs` (10 s unless configured), and an expiry on every key under it, so that a session killed
 * with SIGKILL leaves nothing forever.
 */
export async function holdSession(redis: Redis, base: string, prefix: string, renewMs = defaultRenewMs): Promise<SessionLease> {
  const owner: SessionOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  const leaseKey = `${prefix}:session`;
  const swept = new Set<string>();
  const renew = async () => {
    await redis.multi().set(leaseKey, JSON.stringify(owner), 'EX', leaseSeconds).hset(registryKey(base), prefix, JSON.stringify(owner)).expire(registryKey(base), registrySeconds).exec();
    await sweep(redis, prefix, swept);
  };
  await renew();
  const timer = setInterval(() => void renew().catch(() => undefined), renewMs);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await deletePrefix(redis, prefix);
      await redis.hdel(registryKey(base), prefix);
    },
  };
}

/** Sessions under the base prefix whose process is gone without cleaning up, and what each left open. */
export async function abandonedSessions(redis: Redis, base: string, mine: string): Promise<AbandonedSession[]> {
  const registered = await redis.hgetall(registryKey(base));
  const found: AbandonedSession[] = [];
  for (const [prefix, raw] of Object.entries(registered)) {
    if (prefix === mine) continue;
    const owner = JSON.parse(raw) as SessionOwner | undefined;
    if (alive(owner, await redis.get(`${prefix}:session`))) continue;
    const store = new RequestStore(redis, prefix);
    const open: RemedyRequest[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:request:*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const request = await store.get(key.slice(`${prefix}:request:`.length));
        if (request && !finishedStatuses.has(request.status)) open.push(request);
      }
    } while (cursor !== '0');
    found.push({ prefix, owner, open });
  }
  return found;
}

/** Removes what an abandoned session left, once it has been reported. */
export async function discardSession(redis: Redis, base: string, prefix: string): Promise<void> {
  await deletePrefix(redis, prefix);
  await redis.hdel(registryKey(base), prefix);
}
