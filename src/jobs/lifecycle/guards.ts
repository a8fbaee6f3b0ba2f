import type { Redis } from 'ioredis';
import type { Plan } from '../../remedies/plan.js';

/** Who holds something, for the message to the person who is refused. */
export interface Holder {
  readonly requestId: string;
  readonly entryId: string;
  readonly requestedBy: string;
}

const day = 24 * 3600;
const hourMs = 3_600_000;

/** Takes the key when it is free, or renews it when this holder has it; returns the other holder's value. */
const holdScript = `
local v = redis.call('GET', KEYS[1])
if (not v) or v == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return false
end
return v`;

/** Deletes each of KEYS that holder ARGV[1] (a request id) holds; leaves the others' (and what is not a holder). */
const releaseScript = `
for _, k in ipairs(KEYS) do
  local v = redis.call('GET', k)
  if v then
    local ok, h = pcall(cjson.decode, v)
    if ok and type(h) == 'table' and h.requestId == ARGV[1] then redis.call('DEL', k) end
  end
end
return 0`;

/** Counts a request in the sliding hour when the person is under the limit; 0 when at it. */
const reserveScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * reserveScript and holdScript in one step, for a new fix: the person's count first (the limit is
 * the refusal they see when both apply), then the entry; neither is taken unless both are free.
 */
const admitScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return {'limit'} end
local v = redis.call('GET', KEYS[2])
if v and v ~= ARGV[5] then return {'busy', v} end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[5], 'EX', ARGV[6])
return {'ok'}`;

/** What admitting a new fix found: both taken, the person at their limit, or the entry held by another remedy. */
export type Admission = { ok: true } | { ok: false; refused: 'limit' } | { ok: false; refused: 'busy'; holder: Holder };

/** Options of the guards; `now` is the clock of the per-person rate (tests move it). */
export interface GuardOptions {
  readonly now?: () => number;
}

/**
 * The limits around remedies, in Redis so that every bot replica sees them: at most one remedy of an
 * entry per cluster at a time (a lock whose lifetime the caller ties to the remedy's state), at most
 * one remedy changing the same object, and a per-person rate over a sliding hour.
 */
export class RemedyGuards {
  private readonly now: () => number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    options: GuardOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  private activeKey(cluster: string, entryId: string): string {
    return `${this.prefix}:active:${cluster}:${entryId}`;
  }

  /**
   * Claims "this entry is being fixed on this cluster" for `seconds`, or renews the claim when the same
   * request holds it; returns the holder when another request has it.
   */
  async claimEntry(cluster: string, holder: Holder, seconds: number): Promise<Holder | undefined> {
    const other = (await this.redis.eval(holdScript, 1, this.activeKey(cluster, holder.entryId), this.value(holder), String(Math.max(1, Math.ceil(seconds))))) as string | null;
    return other ? (JSON.parse(other) as Holder) : undefined;
  }

  /** `claimEntry` added to a MULTI of the caller's, for a request that renews its own claim (the answer is not read). */
  claimEntryIn(tx: ReturnType<Redis['multi']>, cluster: string, holder: Holder, seconds: number): void {
    tx.eval(holdScript, 1, this.activeKey(cluster, holder.entryId), this.value(holder), String(Math.max(1, Math.ceil(seconds))));
  }

  /** One spelling of a holder, so that a renewal recognises its own claim. */
  private value(h: Holder): string {
    return JSON.stringify({ requestId: h.requestId, entryId: h.entryId, requestedBy: h.requestedBy });
  }

  async releaseEntry(cluster: string, entryId: string, requestId: string): Promise<void> {
    await this.releaseHeld([this.activeKey(cluster, entryId)], requestId);
  }

  /** Frees, in one round trip, the keys among `keys` that `requestId` holds. */
  private async releaseHeld(keys: readonly string[], requestId: string): Promise<void> {
    if (keys.length > 0) await this.redis.eval(releaseScript, keys.length, ...keys, requestId);
  }

  /** Frees what a remedy holds (the objects its plan changes, when it has one, and its entry), in one round trip. */
  async releaseAll(plan: Plan | undefined, cluster: string, entryId: string, requestId: string): Promise<void> {
    await this.releaseHeld([...(plan ? this.objectKeys(plan) : []), this.activeKey(cluster, entryId)], requestId);
  }

  private objectKeys(plan: Plan): string[] {
    const names = new Set(plan.steps.filter((s) => s.risk !== 'read-only').flatMap((s) => s.targets.map((t) => `${t.kind}/${t.namespace}/${t.name}`)));
    return [...names].map((n) => `${this.prefix}:lock:${plan.cluster}:${n}`);
  }

  /**
   * Locks the objects a plan changes for its request, all or none. Returns the holder of the first
   * object another remedy holds.
   */
  async lockObjects(plan: Plan, holder: Holder): Promise<{ object: string; holder: Holder } | undefined> {
    const keys = this.objectKeys(plan);
    const taken: string[] = [];
    for (const key of keys) {
      const ok = await this.redis.set(key, JSON.stringify(holder), 'EX', day, 'NX');
      if (ok === 'OK') {
        taken.push(key);
        continue;
      }
      const raw = await this.redis.get(key);
      const other = raw ? (JSON.parse(raw) as Holder) : undefined;
      if (other && other.requestId === holder.requestId) continue;
      if (taken.length > 0) await this.redis.del(...taken);
      return { object: key.split(':').slice(3).join(':'), holder: other ?? holder };
    }
    return undefined;
  }

  async unlockObjects(plan: Plan, requestId: string): Promise<void> {
    await this.releaseHeld(this.objectKeys(plan), requestId);
  }

  private rateKey(user: string): string {
    return `${this.prefix}:rate:${user}`;
  }

  /**
   * Counts one fix request of a person when fewer than `perHour` were counted in the hour before now
   * (a sliding hour, not the clock's); returns the ticket that `unreserve` takes back, or undefined
   * when the person is at the limit. Atomic, so concurrent requests cannot pass the limit together.
   */
  async reserve(user: string, perHour: number, ticket: string): Promise<string | undefined> {
    const ok = await this.redis.eval(reserveScript, 1, this.rateKey(user), String(this.now()), String(hourMs), String(perHour), ticket);
    return Number(ok) === 1 ? ticket : undefined;
  }

  /**
   * For a new fix, in one round trip: counts it against the person's hour (as `reserve`, `holder.requestId`
   * the ticket) and claims its entry for `seconds` (as `claimEntry`). Nothing is taken when either refuses.
   */
  async admit(user: string, perHour: number, cluster: string, holder: Holder, seconds: number): Promise<Admission> {
    const [verdict, other] = (await this.redis.eval(admitScript, 2, this.rateKey(user), this.activeKey(cluster, holder.entryId), String(this.now()), String(hourMs), String(perHour), holder.requestId, this.value(holder), String(Math.max(1, Math.ceil(seconds))))) as [string, string?];
    if (verdict === 'ok') return { ok: true };
    if (verdict === 'busy' && other) return { ok: false, refused: 'busy', holder: JSON.parse(other) as Holder };
    return { ok: false, refused: 'limit' };
  }

  /** Takes back a request that was refused after it was counted (a busy entry): refusals do not count. */
  async unreserve(user: string, ticket: string): Promise<void> {
    await this.redis.zrem(this.rateKey(user), ticket);
  }
}
