import type { Redis } from 'ioredis';
import { z } from 'zod';

/** Where the watch announced something: a message of the cluster's channel, whose thread gets the updates. */
export interface WatchPost {
  readonly channel: string;
  readonly ts: string;
}

const postSchema = z.object({ channel: z.string(), ts: z.string() });

/**
 * One symptom the watch has seen present: still present (under `entries`), or cleared within the
 * quiet period (under `cleared`, with `clearedAt`), so that its return is said in its thread.
 */
const watchedSchema = z.object({
  /** When a scan first saw it present (this time: a return starts it again). */
  since: z.string(),
  /** The last scan that saw it present. */
  seenAt: z.string(),
  title: z.string(),
  /** Where it was announced; absent while it was snoozed or its post failed (the next scan tries again). */
  post: postSchema.optional(),
  /** When a scan saw it absent, on a record kept for the quiet period. */
  clearedAt: z.string().optional(),
  /** Its last clearing or return. */
  changedAt: z.string().optional(),
  /** When its thread was told of a clearing or a return, within the last hour (the thread's budget). */
  replies: z.array(z.string()).optional(),
  /** Since when its thread was told it keeps changing: nothing more until it stays the same for the quiet period. */
  quietSince: z.string().optional(),
  /** Changes not said since then. */
  unsaid: z.number().optional(),
});
export type Watched = z.infer<typeof watchedSchema>;

/** A doctor that could not run: said once, with where, so its recovery is said once in that thread. */
const unavailableSchema = z.object({ since: z.string(), message: z.string(), post: postSchema.optional() });
export type Unavailable = z.infer<typeof unavailableSchema>;

/** Who silenced a symptom, until when. */
const snoozeSchema = z.object({ by: z.string(), until: z.string() });
export type Snooze = z.infer<typeof snoozeSchema>;

/** How long the watch's record of a cluster outlives its last scan (a cluster removed from the configuration). */
const ttlSeconds = 30 * 24 * 3600;
const hourMs = 3_600_000;

/** Takes this interval's scan: only when no scan runs (the lock) and none ran within the interval (the slot). */
const claimScript = `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
return 1`;

/** Frees the lock only when this scan still holds it. */
const releaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Counts up to ARGV[4] posts in the sliding hour without passing the limit ARGV[3]; returns how many were allowed. */
const budgetScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
local room = tonumber(ARGV[3]) - redis.call('ZCARD', KEYS[1])
local n = math.max(0, math.min(room, tonumber(ARGV[4])))
for i = 1, n do redis.call('ZADD', KEYS[1], ARGV[1], ARGV[5] .. ':' .. i) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n`;

function parsed<T>(schema: z.ZodType<T>, raw: string | null | undefined): T | undefined {
  if (!raw) return undefined;
  try {
    const r = schema.safeParse(JSON.parse(raw));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the scheduled doctor remembers of one cluster, in Redis under the queue prefix so that every
 * bot replica shares it and a restart keeps it: the symptoms it announced, the scan lock and the
 * interval's slot, the hour's post budget, snoozes, and whether the doctor could not run.
 */
export class WatchState {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly cluster: string,
  ) {}

  private key(part: string): string {
    return `${this.prefix}:watch:${this.cluster}:${part}`;
  }

  /** Takes the scan of this interval; false when another scan runs or one ran less than `everyMs` ago. */
  async claim(owner: string, everyMs: number, lockMs: number): Promise<boolean> {
    const won = await this.redis.eval(claimScript, 2, this.key('lock'), this.key('slot'), owner, String(Math.ceil(lockMs)), String(Math.ceil(everyMs)));
    return Number(won) === 1;
  }

  async release(owner: string): Promise<void> {
    await this.redis.eval(releaseScript, 1, this.key('lock'), owner);
  }

  /** How long until a scan may be claimed: the slot's time left, else the running scan's lock. */
  async untilClaimable(): Promise<number> {
    const [[, slot], [, lock]] = (await this.redis.multi().pttl(this.key('slot')).pttl(this.key('lock')).exec()) as [[Error | null, number], [Error | null, number]];
    return Math.max(slot, lock, 0);
  }

  /** The symptoms seen present and not yet seen cleared, by entry. */
  async watched(): Promise<Map<string, Watched>> {
    const raw = await this.redis.hgetall(this.key('entries'));
    const out = new Map<string, Watched>();
    for (const [id, value] of Object.entries(raw)) {
      const w = parsed(watchedSchema, value);
      if (w) out.set(id, w);
    }
    return out;
  }

  async get(entryId: string): Promise<Watched | undefined> {
    return parsed(watchedSchema, await this.redis.hget(this.key('entries'), entryId));
  }

  /** The symptoms announced and seen cleared within the quiet period, by entry. */
  async recentlyCleared(): Promise<Map<string, Watched>> {
    const raw = await this.redis.hgetall(this.key('cleared'));
    const out = new Map<string, Watched>();
    for (const [id, value] of Object.entries(raw)) {
      const w = parsed(watchedSchema, value);
      if (w?.clearedAt) out.set(id, w);
    }
    return out;
  }

  /** Whether the watch has a record of this cluster: false on its first scan, and after Redis lost its data. */
  async established(): Promise<boolean> {
    return (await this.redis.hexists(this.key('meta'), 'startedAt')) === 1;
  }

  async unavailable(): Promise<Unavailable | undefined> {
    return parsed(unavailableSchema, await this.redis.hget(this.key('meta'), 'unavailable'));
  }

  async setUnavailable(u: Unavailable | undefined): Promise<void> {
    const write = this.redis.multi();
    if (u) write.hset(this.key('meta'), 'unavailable', JSON.stringify(u));
    else write.hdel(this.key('meta'), 'unavailable');
    await write.expire(this.key('meta'), ttlSeconds).exec();
  }

  /**
   * Ends a scan that ran: the symptoms as they are now, the count of scans, and the record's start.
   * The cleared ones are kept until `keepMs` after the newest clearing, then Redis drops them (the
   * scans drop each sooner, at the end of its own quiet period).
   */
  async save(watched: ReadonlyMap<string, Watched>, now: Date, cleared: ReadonlyMap<string, Watched> = new Map(), keepMs = 0): Promise<void> {
    const write = this.redis.multi().del(this.key('entries')).del(this.key('cleared'));
    const fields = (m: ReadonlyMap<string, Watched>) => Object.fromEntries([...m].map(([id, w]) => [id, JSON.stringify(w)]));
    if (watched.size > 0) write.hset(this.key('entries'), fields(watched));
    const newest = Math.max(...[...cleared.values()].map((w) => Date.parse(w.clearedAt ?? '')).filter((t) => !Number.isNaN(t)));
    const keep = Math.ceil(newest + keepMs - now.getTime());
    if (cleared.size > 0 && keep > 0) write.hset(this.key('cleared'), fields(cleared)).pexpire(this.key('cleared'), keep);
    write.hsetnx(this.key('meta'), 'startedAt', now.toISOString()).hincrby(this.key('meta'), 'scans', 1);
    await write.expire(this.key('entries'), ttlSeconds).expire(this.key('meta'), ttlSeconds).exec();
  }

  /** Counts a scan that ran to the end without a look at the cluster (the doctor could not run). */
  async countScan(): Promise<void> {
    await this.redis.multi().hincrby(this.key('meta'), 'scans', 1).expire(this.key('meta'), ttlSeconds).exec();
  }

  /** How many scans ran to the end, across replicas, since the record began. */
  async scans(): Promise<number> {
    return Number((await this.redis.hget(this.key('meta'), 'scans')) ?? 0);
  }

  /** Counts up to `wanted` posts against `perHour` over the sliding hour; returns how many may go out. */
  async budget(wanted: number, perHour: number, now: number, ticket: string): Promise<number> {
    if (wanted === 0) return 0;
    return Number(await this.redis.eval(budgetScript, 1, this.key('posts'), String(now), String(hourMs), String(perHour), String(wanted), ticket));
  }

  /** The snoozes in force among these entries. */
  async snoozes(entryIds: readonly string[]): Promise<Map<string, Snooze>> {
    const out = new Map<string, Snooze>();
    if (entryIds.length === 0) return out;
    const raw = await this.redis.mget(...entryIds.map((id) => this.key(`snooze:${id}`)));
    entryIds.forEach((id, i) => {
      const s = parsed(snoozeSchema, raw[i]);
      if (s) out.set(id, s);
    });
    return out;
  }

  /** Silences one symptom for `ms`; returns the snooze already in force instead when there is one. */
  async snooze(entryId: string, by: string, ms: number, now: number): Promise<{ set: true; snooze: Snooze } | { set: false; snooze: Snooze }> {
    const snooze = { by, until: new Date(now + ms).toISOString() };
    const ok = await this.redis.set(this.key(`snooze:${entryId}`), JSON.stringify(snooze), 'PX', Math.ceil(ms), 'NX');
    if (ok === 'OK') return { set: true, snooze };
    const other = parsed(snoozeSchema, await this.redis.get(this.key(`snooze:${entryId}`)));
    return other ? { set: false, snooze: other } : this.snooze(entryId, by, ms, now);
  }
}
