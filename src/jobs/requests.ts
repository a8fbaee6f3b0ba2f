import type { Redis } from 'ioredis';
import { z } from 'zod';
import { planSchema, type Plan } from '../remedies/plan.js';

/**
 * The state of one fix request, kept in Redis by the bot (never in job data): who asked, where the
 * conversation is (the surface's context, e.g. a Slack thread), which stage it is at, the plans made.
 */
export const requestStatus = z.enum([
  'planning', 'awaiting-approval', 'running', 'waiting', 'awaiting-decision', 'resolved', 'not-resolved', 'unanswered', 'denied', 'failed', 'changed', 'blocked', 'cancelled', 'expired', 'lost',
]);
export type RequestStatus = z.infer<typeof requestStatus>;

/** Statuses after which nothing more of a remedy runs by itself. `lost`: Redis lost what it needed. */
export const finishedStatuses: ReadonlySet<string> = new Set(['resolved', 'not-resolved', 'denied', 'failed', 'changed', 'blocked', 'cancelled', 'expired', 'unanswered', 'lost']);

const recordSchema = z.object({
  id: z.string(),
  entryId: z.string(),
  cluster: z.string(),
  requestedBy: z.string(),
  createdAt: z.string(),
  stageId: z.string(),
  status: requestStatus,
  /**
   * The current approval attempt: a fresh id for every plan (a first plan, "Plan again", the next
   * stage). Decisions, expiries and runs belong to an attempt, never to a plan's hash.
   */
  attempt: z.string().optional(),
  /** Surface-specific routing (a Slack channel and thread); no message payloads. */
  context: z.string(),
  /** The fix's parameters as JSON (checked values, never secrets). */
  params: z.string().default('{}'),
  approvedBy: z.string().optional(),
  approvedAt: z.string().optional(),
  deniedBy: z.string().optional(),
  outcome: z.string().optional(),
  /** While a wait of the guide runs: when its continuation is due, and that job's id. */
  resumeAt: z.string().optional(),
  resumeJob: z.string().optional(),
});
/** One fix request as stored. */
export type RemedyRequest = z.infer<typeof recordSchema>;

/** How long a request's record is kept after its last change. */
const ttlSeconds = 14 * 24 * 3600;

/** The most open requests one process remembers (a bound on memory, far above any real load). */
const rememberedMax = 10_000;

/** Fix requests in Redis, under the deployment's key prefix. */
export class RequestStore {
  /**
   * The open requests this process has seen, with their plans, in its own memory: when Redis loses
   * its data, this is what is left to tell each thread what happened.
   */
  private readonly remembered = new Map<string, { record: RemedyRequest; plans: Map<string, Plan> }>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(id: string): string {
    return `${this.prefix}:request:${id}`;
  }

  /** Waiting requests by when their continuation is due, so a check finds the overdue ones after a bot restart too. */
  private get waitsKey(): string {
    return `${this.prefix}:waits`;
  }

  private remember(record: RemedyRequest): void {
    if (finishedStatuses.has(record.status)) {
      this.remembered.delete(record.id);
      return;
    }
    const known = this.remembered.get(record.id);
    if (known) known.record = record;
    else this.remembered.set(record.id, { record, plans: new Map() });
    if (this.remembered.size > rememberedMax) this.remembered.delete(this.remembered.keys().next().value!);
  }

  /** The open requests this process remembers, each with the plan of its current stage. */
  rememberedOpen(): { record: RemedyRequest; plan: Plan | undefined }[] {
    return [...this.remembered.values()].map(({ record, plans }) => ({ record, plan: plans.get(record.stageId) }));
  }

  async create(r: RemedyRequest): Promise<RemedyRequest> {
    const record = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as RemedyRequest;
    await this.redis.multi().hset(this.key(r.id), record).expire(this.key(r.id), ttlSeconds).exec();
    this.remember(record);
    return record;
  }

  /** Writes a request (and its current plan) back after Redis lost it, with its new status. */
  async restore(record: RemedyRequest, plan: Plan | undefined): Promise<void> {
    const fields: Record<string, string | number> = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Record<string, string | number>;
    if (plan) fields[`plan:${plan.stageId}`] = JSON.stringify(plan);
    await this.redis.multi().hset(this.key(record.id), fields).expire(this.key(record.id), ttlSeconds).zrem(this.waitsKey, record.id).exec();
    this.remember(record);
  }

  async get(id: string): Promise<RemedyRequest | undefined> {
    const raw = await this.redis.hgetall(this.key(id));
    if (!raw || Object.keys(raw).length === 0) return undefined;
    const parsed = recordSchema.safeParse(raw);
    if (parsed.success) this.remember(parsed.data);
    return parsed.success ? parsed.data : undefined;
  }

  async update(id: string, fields: Partial<Omit<RemedyRequest, 'id'>>): Promise<void> {
    const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string | number>;
    if (Object.keys(clean).length === 0) return;
    const write = this.redis.multi().hset(this.key(id), clean).expire(this.key(id), ttlSeconds);
    if (clean.status !== undefined && clean.status !== 'waiting') write.zrem(this.waitsKey, id);
    await write.exec();
    const known = this.remembered.get(id);
    if (known) this.remember({ ...known.record, ...clean } as RemedyRequest);
  }

  /** A wait of the guide began: its continuation (job `jobId`) is due at `dueMs`. */
  async markWaiting(id: string, jobId: string, dueMs: number): Promise<void> {
    await this.update(id, { status: 'waiting', resumeAt: new Date(dueMs).toISOString(), resumeJob: jobId });
    await this.redis.multi().zadd(this.waitsKey, dueMs, id).expire(this.waitsKey, ttlSeconds).exec();
  }

  /** Requests whose continuation was due before `beforeMs`. */
  async overdueWaits(beforeMs: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.waitsKey, 0, beforeMs);
  }

  async clearWait(id: string): Promise<void> {
    await this.redis.zrem(this.waitsKey, id);
  }

  /** Forgets the approval or denial of the previous stage when the next stage is planned. */
  async clearDecision(id: string): Promise<void> {
    await this.redis.hdel(this.key(id), 'approvedBy', 'approvedAt', 'deniedBy');
  }

  async savePlan(plan: Plan): Promise<void> {
    await this.redis.hset(this.key(plan.requestId), `plan:${plan.stageId}`, JSON.stringify(plan));
    this.remembered.get(plan.requestId)?.plans.set(plan.stageId, plan);
  }

  async plan(id: string, stageId: string): Promise<Plan | undefined> {
    const raw = await this.redis.hget(this.key(id), `plan:${stageId}`);
    if (!raw) return undefined;
    const parsed = planSchema.safeParse(JSON.parse(raw));
    if (parsed.success) this.remembered.get(id)?.plans.set(stageId, parsed.data);
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * Records the first decision on something of a request (an attempt's approval, a question's answer)
   * atomically: of two clicks, from one person or two, from one bot replica or two, or a click and its
   * expiry, exactly one wins. Returns the winner.
   */
  async claimDecision(id: string, about: string, who: string, verdict: 'approved' | 'denied' | 'expired'): Promise<{ won: boolean; by: string; verdict: string }> {
    const key = `${this.prefix}:decision:${id}:${about}`;
    const value = `${verdict}|${who}|${new Date().toISOString()}`;
    const set = await this.redis.set(key, value, 'EX', ttlSeconds, 'NX');
    if (set === 'OK') return { won: true, by: who, verdict };
    const holder = (await this.redis.get(key)) ?? value;
    const [v, by] = holder.split('|');
    return { won: false, by: by ?? '?', verdict: v ?? '?' };
  }

  /** Who decided already, if anyone. */
  async decisionOf(id: string, about: string): Promise<{ by: string; verdict: string } | undefined> {
    const holder = await this.redis.get(`${this.prefix}:decision:${id}:${about}`);
    if (!holder) return undefined;
    const [verdict, by] = holder.split('|');
    return { by: by ?? '?', verdict: verdict ?? '?' };
  }

  /** True the first time a key is claimed (within a day): a redelivered event is handled once. */
  async once(key: string): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}:once:${key}`, '1', 'EX', 24 * 3600, 'NX')) === 'OK';
  }

  /** A request id: lower-case letters and digits, never an integer string (BullMQ job ids). */
  static newId(): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = crypto.getRandomValues(new Uint8Array(10));
    return 'r' + Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  }
}
