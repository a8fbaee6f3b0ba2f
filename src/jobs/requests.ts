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

/** How an open remedy's state reads to a person (the status list, a refusal naming the remedy that holds an entry). */
export const openStatusWords: Readonly<Record<string, string>> = {
  planning: 'planning',
  'awaiting-approval': 'awaiting approval',
  running: 'running',
  waiting: 'waiting',
  'awaiting-decision': 'awaiting an answer',
};

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
  /** When the present status began (absent on records written before it was kept). */
  since: z.string().optional(),
});
/** The fields of a record, read without its plans (`plan:<stage>`), which can be large. */
const recordFields = Object.keys(recordSchema.shape) as (keyof z.infer<typeof recordSchema>)[];
/** One fix request as stored. */
export type RemedyRequest = z.infer<typeof recordSchema>;

/** How long a request's record is kept after its last change. */
const ttlSeconds = 14 * 24 * 3600;

/** The most open requests one process remembers (a bound on memory, far above any real load). */
const rememberedMax = 10_000;

/** The most open requests `open()` reads: one remedy per entry and cluster makes far fewer. */
const openReadMax = 1_000;

/** Sets `since` when the status written differs from the stored one, so a status written again keeps its time. */
const sinceScript = `
if redis.call('HGET', KEYS[1], 'status') ~= ARGV[1] then redis.call('HSET', KEYS[1], 'since', ARGV[2]) end
return 0`;

/** A MULTI of the store's, to which a caller adds commands that must go with a change (its audit record, a lock). */
export type Alongside = (tx: ReturnType<Redis['multi']>) => void;

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

  /** The ids of the requests not finished, by when they were asked: what every replica's `status` reads. */
  private get openKey(): string {
    return `${this.prefix}:open`;
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

  async create(r: RemedyRequest, alongside?: Alongside): Promise<RemedyRequest> {
    const record = Object.fromEntries(Object.entries({ ...r, since: r.since ?? r.createdAt }).filter(([, v]) => v !== undefined)) as RemedyRequest;
    const write = this.redis.multi().hset(this.key(r.id), record).expire(this.key(r.id), ttlSeconds);
    alongside?.(write);
    await this.indexOpen(write, record.id, record.status, Date.parse(record.createdAt)).exec();
    this.remember(record);
    return record;
  }

  /** Writes a request (and its current plan) back after Redis lost it, with its new status. */
  async restore(record: RemedyRequest, plan: Plan | undefined): Promise<void> {
    const fields: Record<string, string | number> = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Record<string, string | number>;
    if (plan) fields[`plan:${plan.stageId}`] = JSON.stringify(plan);
    fields.since = new Date().toISOString();
    const write = this.redis.multi().hset(this.key(record.id), fields).expire(this.key(record.id), ttlSeconds).zrem(this.waitsKey, record.id);
    await this.indexOpen(write, record.id, record.status, Date.parse(record.createdAt)).exec();
    this.remember(record);
  }

  /** Keeps the index of open requests in step with a status written in `write`. */
  private indexOpen<T extends ReturnType<Redis['multi']>>(write: T, id: string, status: string, askedMs: number): T {
    if (finishedStatuses.has(status)) write.zrem(this.openKey, id);
    else write.zadd(this.openKey, 'NX', Number.isFinite(askedMs) ? askedMs : Date.now(), id).expire(this.openKey, ttlSeconds);
    return write;
  }

  /**
   * The requests not finished, oldest first, as every replica sees them (read from Redis, not this
   * process's memory). Ids whose record has expired or finished are dropped from the index on the way.
   */
  async open(): Promise<RemedyRequest[]> {
    const ids = await this.redis.zrange(this.openKey, 0, openReadMax - 1);
    if (ids.length === 0) return [];
    const read = this.redis.pipeline();
    for (const id of ids) read.hmget(this.key(id), ...recordFields);
    const replies = (await read.exec()) ?? [];
    const open: RemedyRequest[] = [];
    const stale: string[] = [];
    ids.forEach((id, i) => {
      const [err, values] = replies[i] ?? [];
      if (err) throw err;
      const raw = Object.fromEntries(recordFields.map((f, j) => [f, (values as (string | null)[])[j]]).filter(([, v]) => v !== null));
      const parsed = recordSchema.safeParse(raw);
      if (parsed.success && !finishedStatuses.has(parsed.data.status)) open.push(parsed.data);
      else stale.push(id);
    });
    if (stale.length > 0) await this.redis.zrem(this.openKey, ...stale);
    return open;
  }

  async get(id: string): Promise<RemedyRequest | undefined> {
    const raw = await this.redis.hgetall(this.key(id));
    if (!raw || Object.keys(raw).length === 0) return undefined;
    const parsed = recordSchema.safeParse(raw);
    if (parsed.success) this.remember(parsed.data);
    return parsed.success ? parsed.data : undefined;
  }

  /** Writes fields of a request (with `alongside`'s commands, in the same MULTI). */
  async update(id: string, fields: Partial<Omit<RemedyRequest, 'id'>>, alongside?: Alongside): Promise<void> {
    const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string | number>;
    if (Object.keys(clean).length === 0) {
      if (!alongside) return;
      const only = this.redis.multi();
      alongside(only);
      await only.exec();
      return;
    }
    const write = this.redis.multi();
    alongside?.(write);
    if (typeof clean.status === 'string') write.eval(sinceScript, 1, this.key(id), clean.status, new Date().toISOString());
    write.hset(this.key(id), clean).expire(this.key(id), ttlSeconds);
    if (clean.status !== undefined && clean.status !== 'waiting') write.zrem(this.waitsKey, id);
    if (typeof clean.status === 'string') this.indexOpen(write, id, clean.status, Date.now());
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

  async savePlan(plan: Plan, alongside?: Alongside): Promise<void> {
    const write = this.redis.multi().hset(this.key(plan.requestId), `plan:${plan.stageId}`, JSON.stringify(plan));
    alongside?.(write);
    await write.exec();
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
  async claimDecision(id: string, about: string, who: string, verdict: 'approved' | 'denied' | 'expired' | 'cancelled'): Promise<{ won: boolean; by: string; verdict: string; at?: string }> {
    const key = `${this.prefix}:decision:${id}:${about}`;
    const at = new Date().toISOString();
    const value = `${verdict}|${who}|${at}`;
    const set = await this.redis.set(key, value, 'EX', ttlSeconds, 'NX');
    if (set === 'OK') return { won: true, by: who, verdict, at };
    const holder = (await this.redis.get(key)) ?? value;
    const [v, by, when] = holder.split('|');
    return { won: false, by: by ?? '?', verdict: v ?? '?', ...(when ? { at: when } : {}) };
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

  /** True for a word of the shape newId gives: r and ten lower-case letters or digits. */
  static isId(word: string): boolean {
    return /^r[a-z0-9]{10}$/.test(word);
  }

  /** A request id: lower-case letters and digits, never an integer string (BullMQ job ids). */
  static newId(): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = crypto.getRandomValues(new Uint8Array(10));
    return 'r' + Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  }
}
