import type { Redis } from 'ioredis';
import { z } from 'zod';
import { planSchema, type Plan } from '../remedies/plan.js';

/**
 * The state of one fix request, kept in Redis by the bot (never in job data): who asked, where the
 * conversation is (the surface's context, e.g. a Slack thread), which stage it is at, the plans made.
 */
export const requestStatus = z.enum([
  'planning', 'awaiting-approval', 'running', 'waiting', 'awaiting-decision', 'resolved', 'not-resolved', 'denied', 'failed', 'changed', 'blocked', 'cancelled', 'expired',
]);
export type RequestStatus = z.infer<typeof requestStatus>;

const recordSchema = z.object({
  id: z.string(),
  entryId: z.string(),
  cluster: z.string(),
  requestedBy: z.string(),
  createdAt: z.string(),
  stageId: z.string(),
  status: requestStatus,
  planSeq: z.coerce.number().int(),
  /** Surface-specific routing (a Slack channel and thread); no message payloads. */
  context: z.string(),
  /** The fix's parameters as JSON (checked values, never secrets). */
  params: z.string().default('{}'),
  approvedBy: z.string().optional(),
  approvedAt: z.string().optional(),
  deniedBy: z.string().optional(),
  outcome: z.string().optional(),
});
/** One fix request as stored. */
export type RemedyRequest = z.infer<typeof recordSchema>;

/** How long a request's record is kept after its last change. */
const ttlSeconds = 14 * 24 * 3600;

/** Fix requests in Redis, under the deployment's key prefix. */
export class RequestStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(id: string): string {
    return `${this.prefix}:request:${id}`;
  }

  async create(r: Omit<RemedyRequest, 'planSeq'>): Promise<RemedyRequest> {
    const record = { ...r, planSeq: 0 };
    await this.redis.multi().hset(this.key(r.id), record).expire(this.key(r.id), ttlSeconds).exec();
    return record;
  }

  async get(id: string): Promise<RemedyRequest | undefined> {
    const raw = await this.redis.hgetall(this.key(id));
    if (!raw || Object.keys(raw).length === 0) return undefined;
    const parsed = recordSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }

  async update(id: string, fields: Partial<Omit<RemedyRequest, 'id'>>): Promise<void> {
    const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string | number>;
    if (Object.keys(clean).length > 0) await this.redis.multi().hset(this.key(id), clean).expire(this.key(id), ttlSeconds).exec();
  }

  /** Forgets the approval or denial of the previous stage when the next stage is planned. */
  async clearDecision(id: string): Promise<void> {
    await this.redis.hdel(this.key(id), 'approvedBy', 'approvedAt', 'deniedBy');
  }

  /** The next plan number of the request (1, 2, …). */
  async nextPlanSeq(id: string): Promise<number> {
    return this.redis.hincrby(this.key(id), 'planSeq', 1);
  }

  async savePlan(plan: Plan): Promise<void> {
    await this.redis.hset(this.key(plan.requestId), `plan:${plan.stageId}`, JSON.stringify(plan));
  }

  async plan(id: string, stageId: string): Promise<Plan | undefined> {
    const raw = await this.redis.hget(this.key(id), `plan:${stageId}`);
    if (!raw) return undefined;
    const parsed = planSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * Records the first decision on a plan (approve or deny) atomically: of two clicks, from one person
   * or two, from one bot replica or two, exactly one wins. Returns the winner.
   */
  async claimDecision(id: string, stageId: string, planHash: string, who: string, verdict: 'approved' | 'denied' | 'expired'): Promise<{ won: boolean; by: string; verdict: string }> {
    const key = `${this.prefix}:decision:${id}:${stageId}:${planHash.slice(0, 16)}`;
    const value = `${verdict}|${who}|${new Date().toISOString()}`;
    const set = await this.redis.set(key, value, 'EX', ttlSeconds, 'NX');
    if (set === 'OK') return { won: true, by: who, verdict };
    const holder = (await this.redis.get(key)) ?? value;
    const [v, by] = holder.split('|');
    return { won: false, by: by ?? '?', verdict: v ?? '?' };
  }

  /** Who decided on a plan already, if anyone. */
  async decisionOf(id: string, stageId: string, planHash: string): Promise<{ by: string; verdict: string } | undefined> {
    const holder = await this.redis.get(`${this.prefix}:decision:${id}:${stageId}:${planHash.slice(0, 16)}`);
    if (!holder) return undefined;
    const [verdict, by] = holder.split('|');
    return { by: by ?? '?', verdict: verdict ?? '?' };
  }

  /** True the first time a key is claimed (within a day): a redelivered event is handled once. */
  async once(key: string): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}:once:${key}`, '1', 'EX', 24 * 3600, 'NX')) === 'OK';
  }

  /** True when none of `keys` was claimed within `ttlSeconds`; claims them all either way (a replayed Slack request). */
  async firstTime(keys: readonly string[], ttlSeconds: number): Promise<boolean> {
    const tx = this.redis.multi();
    for (const k of keys) tx.set(`${this.prefix}:once:${k}`, '1', 'EX', ttlSeconds, 'NX');
    const results = await tx.exec();
    if (!results) throw new Error('the claim of a request was discarded');
    return results.every(([err, v]) => !err && v === 'OK');
  }

  /** A request id: lower-case letters and digits, never an integer string (BullMQ job ids). */
  static newId(): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = crypto.getRandomValues(new Uint8Array(10));
    return 'r' + Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  }
}
