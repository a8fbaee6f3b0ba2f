import type { Redis } from 'ioredis';
import type { Plan } from './plan.js';

/** Who holds something, for the message to the person who is refused. */
export interface Holder {
  readonly requestId: string;
  readonly entryId: string;
  readonly requestedBy: string;
}

const day = 24 * 3600;

/**
 * The limits around remedies, in Redis so that every bot replica sees them: at most one remedy of an
 * entry per cluster at a time, at most one remedy changing the same object, and a per-person rate.
 */
export class RemedyGuards {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private activeKey(cluster: string, entryId: string): string {
    return `${this.prefix}:active:${cluster}:${entryId}`;
  }

  /** Claims "this entry is being fixed on this cluster"; returns the holder when someone else has it. */
  async claimEntry(cluster: string, holder: Holder): Promise<Holder | undefined> {
    const key = this.activeKey(cluster, holder.entryId);
    const ok = await this.redis.set(key, JSON.stringify(holder), 'EX', day, 'NX');
    if (ok === 'OK') return undefined;
    const raw = await this.redis.get(key);
    return raw ? (JSON.parse(raw) as Holder) : undefined;
  }

  async releaseEntry(cluster: string, entryId: string, requestId: string): Promise<void> {
    const key = this.activeKey(cluster, entryId);
    const raw = await this.redis.get(key);
    if (raw && (JSON.parse(raw) as Holder).requestId === requestId) await this.redis.del(key);
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
    for (const key of this.objectKeys(plan)) {
      const raw = await this.redis.get(key);
      if (raw && (JSON.parse(raw) as Holder).requestId === requestId) await this.redis.del(key);
    }
  }

  /** Counts a fix request of a person in the current hour; false when over the limit. */
  async withinRate(user: string, perHour: number): Promise<boolean> {
    const key = `${this.prefix}:rate:${user}:${Math.floor(Date.now() / 3_600_000)}`;
    const n = await this.redis.multi().incr(key).expire(key, 3600).exec();
    return Number(n?.[0]?.[1] ?? 0) <= perHour;
  }
}
