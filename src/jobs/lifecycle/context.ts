import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { approvalRules, type Config } from '../../config.js';
import type { MedicMetrics } from '../../observability/metrics.js';
import type { Plan } from '../../remedies/plan.js';
import { AuditTrail, type AuditAction } from '../audit.js';
import { DoctorResults } from '../doctor-results.js';
import { clusterQueueName, jobRetention, newAttemptId, planJobId, runJobId, type PlanJobData, type RunJobData } from '../names.js';
import type { RedisOutageLog } from '../redis-outage.js';
import { finishedStatuses, type Alongside, type RequestStore, type RemedyRequest } from '../requests.js';
import { newSealingKey, type SealingKey } from '../sealing.js';
import type { ApprovalPolicy } from './approval-policy.js';
import { Deadlines } from './deadlines.js';
import { RemedyGuards, type Holder } from './guards.js';
import type { Posted, RemedyReporter } from './reporter.js';

/** What the lifecycle is built from; the composition root makes each part once and hands it in. */
export interface CoordinatorOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** The bot's Redis connection (non-blocking commands); its owner closes it after the coordinator. */
  readonly redis: Redis;
  /** The fix requests, on `redis`; the surface's reporter reads the same store. */
  readonly store: RequestStore;
  /** The process's Redis outage log; it already watches `redis`. */
  readonly outage: RedisOutageLog;
  readonly reporter: RemedyReporter;
  readonly policy: ApprovalPolicy;
  /** Counts remedies by outcome; events are handled once across replicas, so each is counted once. */
  readonly metrics?: MedicMetrics;
  /** How the surface names a person in an answer (a Slack mention); the plain name by default. */
  readonly nameOf?: (user: string) => string;
}

/** When a plan's approval runs out: its planning time plus the cluster's approval window. */
export function approvalExpiresAt(config: Config, plan: Plan): Date {
  return new Date(Date.parse(plan.plannedAt) + approvalRules(config, plan.cluster).expiresMinutes * 60_000);
}

/** The answer to a button press or a prompt: done, or why not. */
export type Answer = { ok: true; message?: string } | { ok: false; message: string };

export const hhmm = (d: Date) => `${d.toISOString().slice(11, 16)} UTC`;

/** Statuses a remedy does not leave by itself; its entry is free in each of them. */
export const finished = finishedStatuses;

/**
 * How long an entry's lock outlives the state that renewed it, should the bot never come back to
 * release it: the lock of a remedy waiting for a card, a wait or an answer lasts that long plus this.
 */
export const lockMarginSeconds = 5 * 60;
/** The lock of a remedy that plans or runs: renewed at every step, so only a remedy nobody reports on loses it. */
export const busySeconds = 60 * 60;

/** What an approval, a denial or an expiry of one attempt is recorded under. */
export const attemptKey = (stageId: string, attempt: string) => `${stageId}:${attempt}`;
/** What the answer to the question asked after an attempt's run is recorded under. */
export const questionKey = (stageId: string, attempt: string) => `${stageId}:${attempt}:question`;

const jobDefaults = { attempts: 1, ...jobRetention } as const;

/** An audit record of what happened to a request (or a cluster). */
function auditRecord(action: AuditAction, who: string, req: Partial<RemedyRequest> | undefined, detail?: string) {
  return { action, who, ...(req?.id ? { requestId: req.id } : {}), ...(req?.entryId ? { entryId: req.entryId } : {}), ...(req?.cluster ? { cluster: req.cluster } : {}), ...(req?.stageId ? { stageId: req.stageId } : {}), ...(detail ? { detail } : {}) };
}

/**
 * What the lifecycle's parts (clicks, worker events, expiry, admission) share: the request store, the
 * limits, the audit trail, the cluster queues and the bot's deadlines, and the helpers that keep them
 * consistent.
 */
export class LifecycleContext {
  readonly store: RequestStore;
  readonly audit: AuditTrail;
  /** The last doctor result per cluster, for every replica's `status`. */
  readonly doctorResults: DoctorResults;
  readonly guards: RemedyGuards;
  readonly redis: Redis;
  /**
   * The cluster queues' and the deadlines' connection, apart from `redis`: BullMQ defines its 64
   * scripts on a connection it is given, and ioredis copies every script onto each MULTI or pipeline
   * made on that connection (measured: 130 µs a MULTI, against 21 µs on a connection without them).
   * The store, the audit trail and the guards make several per fix, on `redis`.
   */
  private readonly queueRedis: Redis;
  readonly deadlines: Deadlines;
  readonly outage: RedisOutageLog;
  /** One-time keys of runs that reveal a secret; only this process can open what they seal. */
  readonly sealingKeys = new Map<string, SealingKey>();
  private readonly queues = new Map<string, Queue>();
  /** Reports of one request are handled in order, one at a time. */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(readonly options: CoordinatorOptions) {
    const { config } = options;
    this.outage = options.outage;
    this.redis = options.redis;
    this.queueRedis = options.redis.duplicate();
    this.outage.watchConnection(this.queueRedis);
    this.store = options.store;
    this.audit = new AuditTrail(this.redis, config.queuePrefix, {
      retentionDays: config.auditRetentionDays,
      maxRecords: config.auditMaxRecords,
      onCapped: ({ dropped, oldestKept }) =>
        options.logger.warn({ dropped, oldestKept, maxRecords: config.auditMaxRecords }, `the audit trail reached its most records (${config.auditMaxRecords}): its ${dropped} oldest were dropped before their retention; it now starts at ${oldestKept} (PLATFORM_MEDIC_AUDIT_MAX_RECORDS raises the cap)`),
    });
    this.doctorResults = new DoctorResults(this.redis, config.queuePrefix);
    this.guards = new RemedyGuards(this.redis, config.queuePrefix);
    this.deadlines = new Deadlines(this.queueRedis, config.queuePrefix, this.outage);
    for (const c of config.clusters) {
      const queue = new Queue(clusterQueueName(c.name), { connection: this.queueRedis, prefix: config.queuePrefix });
      this.outage.watchErrors(queue, `queue ${queue.name}`);
      this.queues.set(c.name, queue);
    }
  }

  record(action: AuditAction, who: string, req: Partial<RemedyRequest> | undefined, detail?: string): Promise<void> {
    return this.audit.append(auditRecord(action, who, req, detail)).catch((err: unknown) => this.options.logger.error({ err: (err as Error).message }, 'could not append to the audit trail'));
  }

  /** `record`'s append, added to a change's MULTI (see RequestStore's `alongside`): one round trip for both. */
  recordIn(action: AuditAction, who: string, req: Partial<RemedyRequest> | undefined, detail?: string): Alongside {
    return (tx) => void this.audit.appendIn(tx, auditRecord(action, who, req, detail));
  }

  queue(cluster: string): Queue {
    const q = this.queues.get(cluster);
    if (!q) throw new Error(`no queue for cluster ${cluster}`);
    return q;
  }

  /** Queues a stage's plan as a fresh approval attempt; returns the attempt's id. */
  async enqueuePlan(request: RemedyRequest, stageId: string): Promise<string> {
    const attempt = newAttemptId();
    // The attempt is recorded before its job exists, so its completion always finds it current.
    await this.store.update(request.id, { attempt });
    await this.addPlanJob(request, stageId, attempt);
    return attempt;
  }

  /** Queues the plan job of an attempt already recorded with the request. */
  async addPlanJob(request: RemedyRequest, stageId: string, attempt: string): Promise<void> {
    const params = JSON.parse(request.params) as Record<string, string>;
    const data: PlanJobData = { requestId: request.id, entryId: request.entryId, stageId, cluster: request.cluster, requestedBy: request.requestedBy, params };
    await this.queue(request.cluster).add('plan', data, { ...jobDefaults, jobId: planJobId(request.id, stageId, attempt) });
  }

  /** Queues the run of an approved attempt; its id derives from the attempt, so a second click adds nothing. */
  async enqueueRun(plan: Plan, approvedBy: string, attempt: string): Promise<void> {
    // A step that reveals a secret gets a one-time key: Redis only ever holds the sealed value.
    let sealTo: string | undefined;
    if (plan.steps.some((s) => s.kind === 'revealSecret')) {
      const key = newSealingKey();
      this.sealingKeys.set(plan.requestId, key);
      sealTo = key.publicKey;
    }
    const data: RunJobData = { plan, attempt, fromStep: 0, approvedBy, ...(sealTo ? { sealTo } : {}) };
    await this.queue(plan.cluster).add('run', data, { ...jobDefaults, jobId: runJobId(plan.requestId, plan.stageId, attempt, 0) });
  }

  /** Takes or renews the entry's lock for the remedy's present state; returns another remedy that holds it. */
  holdEntry(request: Pick<RemedyRequest, 'id' | 'cluster' | 'entryId' | 'requestedBy'>, seconds: number): Promise<Holder | undefined> {
    return this.guards.claimEntry(request.cluster, { requestId: request.id, entryId: request.entryId, requestedBy: request.requestedBy }, seconds);
  }

  /** `holdEntry` for a remedy's own renewal, added to a change's MULTI: one round trip for both. */
  holdEntryIn(request: Pick<RemedyRequest, 'id' | 'cluster' | 'entryId' | 'requestedBy'>, seconds: number): Alongside {
    return (tx) => this.guards.claimEntryIn(tx, request.cluster, { requestId: request.id, entryId: request.entryId, requestedBy: request.requestedBy }, seconds);
  }

  /** Frees what a remedy held: the objects its plan changes and its entry. */
  async release(request: RemedyRequest, plan: Plan | undefined): Promise<void> {
    await this.guards.releaseAll(plan, request.cluster, request.entryId, request.id);
  }

  /** When a plan's approval runs out. */
  expiresAt(plan: Plan): Date {
    return approvalExpiresAt(this.options.config, plan);
  }

  /** Keeps what a reporter posted (e.g. the approval card's ts) with the request's routing, so later reports find it. */
  async keepPosted(req: RemedyRequest, posted: Posted): Promise<void> {
    if (!posted || Object.keys(posted).length === 0) return;
    await this.store.update(req.id, { context: JSON.stringify({ ...(JSON.parse(req.context) as Record<string, string>), ...posted }) });
  }

  /** A person as this surface names them in an answer. */
  name(user: string): string {
    return this.options.nameOf ? this.options.nameOf(user) : user;
  }

  /**
   * Whether a person may steer a remedy (plan it again, answer its questions, deny or cancel it): the
   * person who asked and the cluster's approvers may; anyone else gets a refusal, which is audited.
   */
  async steeringRefusal(request: RemedyRequest, user: string, what: string): Promise<string | undefined> {
    if (user === request.requestedBy) return undefined;
    const checked = await this.options.policy.check(user, request.cluster);
    if (checked.approver) return undefined;
    await this.record('action-refused', user, request, what);
    return `Only the person who asked (${this.name(request.requestedBy)}) or an approver of \`${request.cluster}\` can ${what}.${checked.note ? ` ${checked.note}` : ''}`;
  }

  serial(requestId: string, fn: () => Promise<void>): Promise<void> {
    const prev = this.chains.get(requestId) ?? Promise.resolve();
    const next = prev.then(fn).catch((err: unknown) => this.options.logger.error({ err: (err as Error)?.message, requestId }, 'reporting failed'));
    this.chains.set(requestId, next);
    void next.then(() => {
      if (this.chains.get(requestId) === next) this.chains.delete(requestId);
    });
    return next;
  }

  /** Lets queued reports finish, then closes the cluster queues (deadlines and events are closed before). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await this.queueRedis.quit().catch(() => undefined);
  }
}

/**
 * What a button of a remedy the store does not hold is answered: it expired, or the store was emptied (Redis
 * restarted without its data) before this process saw it lost. Either way nothing of it runs.
 */
export const unknownRemedy = 'This remedy is no longer known (it expired, or the bot\'s store lost it): nothing was done and nothing of it will run. Ask for the fix again to start over.';
