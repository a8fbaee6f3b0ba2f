import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { findEntry, findStage } from '../catalogue/index.js';
import { resolveParams } from '../catalogue/params.js';
import { approvalRules, findCluster, type Config } from '../config.js';
import { AuditTrail, type AuditAction } from '../jobs/audit.js';
import { cancelKey, clusterQueueName, parseJobId, planJobId, runJobId, type PlanJobData, type RunJobData } from '../jobs/names.js';
import { connectRedis } from '../jobs/redis.js';
import { RequestStore, type RemedyRequest } from '../jobs/requests.js';
import { newSealingKey, type SealingKey } from '../jobs/sealing.js';
import type { MedicMetrics } from '../observability/metrics.js';
import type { ApprovalPolicy } from './approval-policy.js';
import { RemedyGuards } from './guards.js';
import { planSchema, type Plan } from './plan.js';
import type { RemedyReporter } from './reporter.js';
import type { RunOutcome, StepProgress } from './runner.js';

export type { ApprovalPolicy } from './approval-policy.js';
export { configuredApprovers } from './approval-policy.js';
export type { RemedyReporter } from './reporter.js';

/** The answer to a button press or a prompt: done, or why not. */
export type Answer = { ok: true; message?: string } | { ok: false; message: string };

/** What starting a fix needs. */
export interface FixRequest {
  readonly entryId: string;
  readonly cluster?: string;
  readonly requestedBy: string;
  /** Values for the entry's parameters (`size=200m`); checked here, defaults filled in. */
  readonly params?: Readonly<Record<string, string>>;
  /** The surface's routing for this request (e.g. Slack channel and thread), stored with it. */
  readonly context: Record<string, string>;
}

/** Options of the coordinator. */
export interface CoordinatorOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly reporter: RemedyReporter;
  readonly policy: ApprovalPolicy;
  /** Counts remedies by outcome; events are handled once across replicas, so each is counted once. */
  readonly metrics?: MedicMetrics;
}

/** A person as named in a message: a Slack mention for a Slack user, the plain name otherwise. */
function mention(user: string): string {
  return /^[UW][A-Z0-9]+$/.test(user) ? `<@${user}>` : user;
}

const hhmm = (d: Date) => `${d.toISOString().slice(11, 16)} UTC`;
const jobDefaults = { attempts: 1, removeOnComplete: 1000, removeOnFail: 5000 } as const;
const finished = new Set(['resolved', 'not-resolved', 'denied', 'failed', 'changed', 'blocked', 'cancelled', 'expired']);

/**
 * The bot's side of every remedy: it starts plans, records approvals exactly once, enqueues runs of
 * exactly the approved plan, and turns queue events into reports. It never talks to a cluster.
 * Every decision is appended to the audit trail; every event is handled once across bot replicas.
 */
export class RemedyCoordinator {
  readonly store: RequestStore;
  readonly audit: AuditTrail;
  private readonly guards: RemedyGuards;
  private readonly redis: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly events: QueueEvents[] = [];
  private readonly eventConnections: Redis[] = [];
  /** Reports of one request are handled in order, one at a time. */
  private readonly chains = new Map<string, Promise<void>>();
  /** The bot's own queue: approval expiries, delayed, handled once by whichever replica takes them. */
  private botQueue: Queue | undefined;
  private botWorker: Worker | undefined;
  /** One-time keys of runs that reveal a secret; only this process can open what they seal. */
  private readonly sealingKeys = new Map<string, SealingKey>();

  constructor(private readonly options: CoordinatorOptions) {
    const { config } = options;
    this.redis = connectRedis(config.redisUrl, 'client');
    this.redis.on('error', () => undefined);
    this.store = new RequestStore(this.redis, config.queuePrefix);
    this.audit = new AuditTrail(this.redis, config.queuePrefix, config.auditRetentionDays);
    this.guards = new RemedyGuards(this.redis, config.queuePrefix);
    for (const c of config.clusters) {
      this.queues.set(c.name, new Queue(clusterQueueName(c.name), { connection: this.redis, prefix: config.queuePrefix }));
    }
  }

  /**
   * Subscribes to the queue events of every cluster, from where this deployment last read them, so a
   * bot that restarts misses nothing; resolves once they listen.
   */
  async start(): Promise<void> {
    const { config } = this.options;
    const botConnection = connectRedis(config.redisUrl, 'worker');
    botConnection.on('error', () => undefined);
    this.eventConnections.push(botConnection);
    this.botQueue = new Queue('bot', { connection: this.redis, prefix: config.queuePrefix });
    this.botWorker = new Worker(
      'bot',
      async (job: Job) => {
        const { requestId, stageId, planHash } = job.data as { requestId: string; stageId: string; planHash: string };
        await this.expire(requestId, stageId, planHash);
      },
      { connection: botConnection, prefix: config.queuePrefix, concurrency: 4 },
    );
    this.botWorker.on('error', (err) => this.options.logger.warn({ err: err.message }, 'bot queue connection error'));
    for (const c of config.clusters) {
      const queue = clusterQueueName(c.name);
      const connection = connectRedis(config.redisUrl, 'worker');
      connection.on('error', () => undefined);
      this.eventConnections.push(connection);
      const cursorKey = `${config.queuePrefix}:events-cursor:${queue}`;
      const lastEventId = (await this.redis.get(cursorKey)) ?? '$';
      const ev = new QueueEvents(queue, { connection, prefix: config.queuePrefix, lastEventId });
      const handle = (eventId: string, jobId: string, fn: (req: RemedyRequest) => Promise<void>) => this.onEvent(queue, cursorKey, eventId, jobId, fn);
      ev.on('completed', ({ jobId, returnvalue }, id) => handle(id, jobId, (req) => this.onCompleted(req, jobId, returnvalue)));
      ev.on('failed', ({ jobId, failedReason }, id) => handle(id, jobId, (req) => this.onFailed(req, failedReason)));
      ev.on('progress', ({ jobId, data }, id) => handle(id, jobId, (req) => this.onProgress(req, data)));
      ev.on('error', (err) => this.options.logger.warn({ err: err.message }, 'queue events connection error'));
      await ev.waitUntilReady();
      this.events.push(ev);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.botWorker?.close(), this.botQueue?.close()]);
    await Promise.allSettled(this.events.map((e) => e.close()));
    await Promise.allSettled([...this.chains.values()]);
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await Promise.allSettled([this.redis.quit(), ...this.eventConnections.map((c) => c.quit())]);
  }

  private record(action: AuditAction, who: string, req: Partial<RemedyRequest> | undefined, detail?: string): Promise<void> {
    return this.audit
      .append({ action, who, ...(req?.id ? { requestId: req.id } : {}), ...(req?.entryId ? { entryId: req.entryId } : {}), ...(req?.cluster ? { cluster: req.cluster } : {}), ...(req?.stageId ? { stageId: req.stageId } : {}), ...(detail ? { detail } : {}) })
      .catch((err: unknown) => this.options.logger.error({ err: (err as Error).message }, 'could not append to the audit trail'));
  }

  /** Starts a fix: checks the entry, cluster, parameters and limits, records the request, queues its first plan. */
  async requestFix(req: FixRequest): Promise<{ ok: true; request: RemedyRequest } | { ok: false; message: string }> {
    const { config } = this.options;
    const refuse = async (message: string) => {
      await this.record('refused', req.requestedBy, { entryId: req.entryId, ...(req.cluster ? { cluster: req.cluster } : {}) }, message);
      return { ok: false as const, message };
    };
    const entry = findEntry(req.entryId);
    if (!entry) return refuse(`There is no catalogue entry \`${req.entryId}\`.`);
    const clusterName = req.cluster ?? config.defaultCluster;
    if (!findCluster(config, clusterName)) {
      return refuse(`There is no cluster \`${clusterName}\`. Configured clusters: ${config.clusters.map((c) => `\`${c.name}\``).join(', ')}.`);
    }
    const params = resolveParams(entry, req.params ?? {});
    if (!params.ok) return refuse(params.message);
    if (entry.stages.some((s) => s.steps.some((st) => st.kind === 'revealSecret')) && !(await this.options.policy.isApprover(req.requestedBy, clusterName))) {
      return refuse(`\`${entry.id}\` shows a secret, so only the approvers of \`${clusterName}\` may ask for it.`);
    }
    if (!(await this.guards.withinRate(req.requestedBy, config.fixesPerUserPerHour))) {
      return refuse(`You have asked for ${config.fixesPerUserPerHour} fixes in the last hour, the most one person may; try again later.`);
    }
    const id = RequestStore.newId();
    const holder = await this.guards.claimEntry(clusterName, { requestId: id, entryId: entry.id, requestedBy: req.requestedBy });
    if (holder) {
      const other = await this.store.get(holder.requestId);
      return refuse(`\`${entry.id}\` is already being fixed on \`${clusterName}\` (asked by ${mention(holder.requestedBy)}${other ? `, now ${other.status}` : ''}). Follow that remedy's thread, or cancel it first.`);
    }
    const stage = entry.stages[0]!;
    const request = await this.store.create({
      params: JSON.stringify(params.params),
      id,
      entryId: entry.id,
      cluster: clusterName,
      requestedBy: req.requestedBy,
      createdAt: new Date().toISOString(),
      stageId: stage.id,
      status: 'planning',
      context: JSON.stringify(req.context),
    });
    await this.record('requested', req.requestedBy, request, Object.keys(params.params).length ? JSON.stringify(params.params) : undefined);
    await this.enqueuePlan(request, stage.id);
    return { ok: true, request };
  }

  private async enqueuePlan(request: RemedyRequest, stageId: string): Promise<void> {
    const seq = await this.store.nextPlanSeq(request.id);
    const params = JSON.parse(request.params) as Record<string, string>;
    const data: PlanJobData = { requestId: request.id, entryId: request.entryId, stageId, cluster: request.cluster, requestedBy: request.requestedBy, params };
    await this.queue(request.cluster).add('plan', data, { ...jobDefaults, jobId: planJobId(request.id, stageId, seq) });
  }

  private queue(cluster: string): Queue {
    const q = this.queues.get(cluster);
    if (!q) throw new Error(`no queue for cluster ${cluster}`);
    return q;
  }

  private async enqueueRun(plan: Plan, approvedBy: string): Promise<void> {
    // A step that reveals a secret gets a one-time key: Redis only ever holds the sealed value.
    let sealTo: string | undefined;
    if (plan.steps.some((s) => s.kind === 'revealSecret')) {
      const key = newSealingKey();
      this.sealingKeys.set(plan.requestId, key);
      sealTo = key.publicKey;
    }
    const data: RunJobData = { plan, fromStep: 0, approvedBy, ...(sealTo ? { sealTo } : {}) };
    await this.queue(plan.cluster).add('run', data, { ...jobDefaults, jobId: runJobId(plan.requestId, plan.stageId, plan.hash, 0) });
  }

  /** Whether a person approves on some cluster (who may read the audit trail, cancel others' remedies). */
  isApprover(user: string, cluster?: string): Promise<boolean> {
    return this.options.policy.isApprover(user, cluster);
  }

  /** When a plan's approval runs out. */
  expiresAt(plan: Plan): Date {
    return new Date(Date.parse(plan.plannedAt) + approvalRules(this.options.config, plan.cluster).expiresMinutes * 60_000);
  }

  /** An approver's click. Exactly one approval of a plan wins; anyone else is told why not. */
  async approve(requestId: string, stageId: string, planHash: string, user: string): Promise<Answer> {
    const ctx = await this.current(requestId, stageId, planHash);
    if (!ctx.ok) return ctx;
    const { request, plan } = ctx;
    const refusal = await this.options.policy.refusal(user, plan, request.requestedBy);
    if (refusal) {
      await this.record('approval-refused', user, request, refusal);
      return { ok: false, message: refusal };
    }
    if (request.status !== 'awaiting-approval') return this.notWaiting(request, stageId, planHash);
    const expires = this.expiresAt(plan);
    if (Date.now() > expires.getTime()) {
      await this.expire(requestId, stageId, planHash);
      return { ok: false, message: `This approval expired at ${hhmm(expires)}; nothing was done. Use "Plan again" for a fresh plan.` };
    }
    const lock = await this.guards.lockObjects(plan, { requestId, entryId: request.entryId, requestedBy: request.requestedBy });
    if (lock) {
      return { ok: false, message: `${lock.object} is being changed by another remedy (\`${lock.holder.entryId}\`, asked by ${mention(lock.holder.requestedBy)}); approve this once it ends.` };
    }
    const claim = await this.store.claimDecision(requestId, stageId, planHash, user, 'approved');
    if (!claim.won) return { ok: false, message: `Already ${claim.verdict} by ${mention(claim.by)}.` };
    const approvedAt = new Date().toISOString();
    await this.store.update(requestId, { status: 'running', approvedBy: user, approvedAt });
    await this.enqueueRun(plan, user);
    await this.record('approved', user, request, `plan ${plan.hash.slice(0, 12)}`);
    await this.serial(requestId, () => this.options.reporter.approved({ ...request, status: 'running', approvedBy: user, approvedAt }, plan, user, false));
    return { ok: true };
  }

  /**
   * Ends a plan's wait for approval when its time is up: the card says it expired and offers a fresh
   * plan. Runs from the delayed expiry job, or from a click that comes too late; the first one wins.
   */
  async expire(requestId: string, stageId: string, planHash: string): Promise<void> {
    const request = await this.store.get(requestId);
    const plan = request && (await this.store.plan(requestId, stageId));
    if (!request || !plan || plan.hash !== planHash || request.status !== 'awaiting-approval' || request.stageId !== stageId) return;
    const claim = await this.store.claimDecision(requestId, stageId, planHash, 'nobody', 'expired');
    if (!claim.won) return;
    await this.store.update(requestId, { status: 'expired' });
    await this.release(request, plan);
    await this.record('expired', 'bot', request);
    await this.serial(requestId, () => this.options.reporter.expired({ ...request, status: 'expired' }, plan));
  }

  /** A denial, by an approver or by the person who asked. */
  async deny(requestId: string, stageId: string, planHash: string, user: string): Promise<Answer> {
    const ctx = await this.current(requestId, stageId, planHash);
    if (!ctx.ok) return ctx;
    const { request, plan } = ctx;
    if (user !== request.requestedBy && !(await this.options.policy.isApprover(user, request.cluster))) {
      return { ok: false, message: 'Only an approver or the person who asked can deny this plan.' };
    }
    if (request.status !== 'awaiting-approval') return this.notWaiting(request, stageId, planHash);
    const claim = await this.store.claimDecision(requestId, stageId, planHash, user, 'denied');
    if (!claim.won) return { ok: false, message: `Already ${claim.verdict} by ${mention(claim.by)}.` };
    await this.store.update(requestId, { status: 'denied', deniedBy: user });
    await this.release(request, plan);
    await this.record('denied', user, request);
    this.options.metrics?.remedyEnded('denied');
    await this.serial(requestId, () => this.options.reporter.denied({ ...request, status: 'denied', deniedBy: user }, plan, user));
    return { ok: true };
  }

  /**
   * Cancels a remedy that waits (for approval, for a wait of the guide, for an answer) or runs: a
   * queued continuation is removed; a running stage stops before its next step.
   */
  async cancel(requestId: string, user: string): Promise<Answer> {
    const request = await this.store.get(requestId);
    if (!request) return { ok: false, message: 'This remedy is no longer known (it may have expired).' };
    if (user !== request.requestedBy && !(await this.options.policy.isApprover(user, request.cluster))) {
      return { ok: false, message: 'Only an approver or the person who asked can cancel this remedy.' };
    }
    if (finished.has(request.status)) return { ok: false, message: `Nothing to cancel: the remedy is ${request.status}.` };
    const once = await this.store.once(`cancel:${requestId}`);
    if (!once) return { ok: false, message: 'It is already being cancelled.' };
    await this.redis.set(cancelKey(this.options.config.queuePrefix, requestId), user, 'EX', 7 * 24 * 3600);
    const plan = await this.store.plan(requestId, request.stageId);
    const removed = await this.removeQueued(request, plan);
    const stillRunning = request.status === 'running' && !removed;
    await this.store.update(requestId, { status: stillRunning ? request.status : 'cancelled', outcome: `cancelled by ${user}` });
    await this.record('cancelled', user, request, stillRunning ? 'stops before the next step' : undefined);
    if (!stillRunning) {
      this.options.metrics?.remedyEnded('cancelled');
      await this.release(request, plan);
      await this.serial(requestId, () => this.options.reporter.cancelled({ ...request, status: 'cancelled' }, plan, user));
      return { ok: true };
    }
    return { ok: true, message: 'Cancelling: the running step finishes, then the remedy stops.' };
  }

  /** Removes the jobs of a request that have not started (a plan, a delayed continuation). */
  private async removeQueued(request: RemedyRequest, plan: Plan | undefined): Promise<boolean> {
    const q = this.queue(request.cluster);
    let removed = false;
    const jobs = await q.getJobs(['waiting', 'delayed', 'prioritized']);
    for (const j of jobs) {
      const id = j.id ? parseJobId(j.id) : undefined;
      if (id?.requestId === request.id) removed = (await q.remove(j.id!)) === 1 || removed;
    }
    return removed || request.status !== 'running' || plan === undefined;
  }

  private async release(request: RemedyRequest, plan: Plan | undefined): Promise<void> {
    if (plan) await this.guards.unlockObjects(plan, request.id);
    await this.guards.releaseEntry(request.cluster, request.entryId, request.id);
  }

  /** An answer to the guide's decision point ("still failing?"): plans the next stage or ends. */
  async choose(requestId: string, stageId: string, choiceId: string, user: string): Promise<Answer> {
    const request = await this.store.get(requestId);
    if (!request) return { ok: false, message: 'This remedy is no longer known (it may have expired).' };
    const entry = findEntry(request.entryId);
    const stage = entry && findStage(entry, stageId);
    const choice = stage?.then?.choices.find((c) => c.id === choiceId);
    if (!entry || !stage || !choice) return { ok: false, message: 'That choice does not belong to this remedy.' };
    if (request.status !== 'awaiting-decision' || request.stageId !== stageId) return { ok: false, message: `This question was already answered (the remedy is ${request.status}).` };
    const claim = await this.store.claimDecision(requestId, stageId, 'choice0000000000', user, 'approved');
    if (!claim.won) return { ok: false, message: `Already answered by ${mention(claim.by)}.` };
    await this.record('decision', user, request, `${stage.then!.question} → ${choice.label}`);
    if ('stage' in choice.then) {
      const next = findStage(entry, choice.then.stage)!;
      await this.store.update(requestId, { stageId: next.id, status: 'planning' });
      await this.store.clearDecision(requestId);
      const { approvedBy: _a, approvedAt: _t, deniedBy: _d, ...rest } = request;
      const updated = { ...rest, stageId: next.id, status: 'planning' as const };
      await this.serial(requestId, () => this.options.reporter.planning(updated, entry, next));
      await this.enqueuePlan(updated, next.id);
      return { ok: true, message: choice.label };
    }
    const end = choice.then.end;
    await this.store.update(requestId, { status: end, outcome: choice.then.message });
    await this.release(request, undefined);
    await this.record('outcome', user, request, end);
    this.options.metrics?.remedyEnded(end);
    const message = choice.then.message;
    await this.serial(requestId, () => this.options.reporter.remedyEnded({ ...request, status: end }, end, message, user));
    return { ok: true, message: choice.label };
  }

  /** Plans the current stage again after the cluster changed, a failure, or an expired approval. */
  async replan(requestId: string, stageId: string, user: string): Promise<Answer> {
    const request = await this.store.get(requestId);
    if (!request || request.stageId !== stageId) return { ok: false, message: 'This remedy is no longer at that stage.' };
    if (!['changed', 'failed', 'expired'].includes(request.status)) return { ok: false, message: `Nothing to plan again (the remedy is ${request.status}).` };
    const entry = findEntry(request.entryId)!;
    const stage = findStage(entry, stageId)!;
    const holder = await this.guards.claimEntry(request.cluster, { requestId, entryId: request.entryId, requestedBy: request.requestedBy });
    if (holder && holder.requestId !== requestId) return { ok: false, message: `\`${request.entryId}\` is being fixed by another remedy now (asked by ${mention(holder.requestedBy)}).` };
    await this.store.update(requestId, { status: 'planning' });
    await this.store.clearDecision(requestId);
    const { approvedBy: _a, approvedAt: _t, deniedBy: _d, ...rest } = request;
    const updated = { ...rest, status: 'planning' as const };
    await this.serial(requestId, () => this.options.reporter.planning(updated, entry, stage));
    await this.enqueuePlan(updated, stageId);
    return { ok: true, message: `Planning again for ${mention(user)}.` };
  }

  /** Why a click on a plan that no longer waits did nothing: who decided it, or what it is doing. */
  private async notWaiting(request: RemedyRequest, stageId: string, planHash: string): Promise<Answer> {
    const decided = await this.store.decisionOf(request.id, stageId, planHash);
    if (decided) return { ok: false, message: decided.verdict === 'expired' ? 'This approval expired; nothing was done. Use "Plan again" for a fresh plan.' : `Already ${decided.verdict} by ${mention(decided.by)}.` };
    return { ok: false, message: `This plan is no longer waiting for approval (it is ${request.status}).` };
  }

  private async current(requestId: string, stageId: string, planHash: string): Promise<({ ok: true; request: RemedyRequest; plan: Plan }) | { ok: false; message: string }> {
    const request = await this.store.get(requestId);
    if (!request) return { ok: false, message: 'This remedy is no longer known (it may have expired).' };
    const plan = await this.store.plan(requestId, stageId);
    if (!plan || plan.hash !== planHash || request.stageId !== stageId) return { ok: false, message: 'This card shows an older plan; use the newest card in the thread.' };
    return { ok: true, request, plan };
  }

  private serial(requestId: string, fn: () => Promise<void>): Promise<void> {
    const prev = this.chains.get(requestId) ?? Promise.resolve();
    const next = prev.then(fn).catch((err: unknown) => this.options.logger.error({ err: (err as Error)?.message, requestId }, 'reporting failed'));
    this.chains.set(requestId, next);
    void next.then(() => {
      if (this.chains.get(requestId) === next) this.chains.delete(requestId);
    });
    return next;
  }

  /**
   * Handles one queue event once, even with several bot replicas reading the same stream: the event's
   * stream id is claimed in Redis first. The cursor advances so a restarted bot resumes after it.
   */
  private onEvent(queue: string, cursorKey: string, eventId: string, jobId: string, handle: (req: RemedyRequest) => Promise<void>): void {
    const id = parseJobId(jobId);
    if (!id) return;
    void this.serial(id.requestId, async () => {
      if (!(await this.store.once(`event:${queue}:${eventId}`))) return;
      const req = await this.store.get(id.requestId);
      if (req) await handle(req);
      await this.redis.set(cursorKey, eventId);
    });
  }

  private async onCompleted(req: RemedyRequest, jobId: string, returnvalue: unknown): Promise<void> {
    const value: unknown = typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue;
    const kind = parseJobId(jobId)?.kind;
    const entry = findEntry(req.entryId);
    if (!entry) return;
    if (kind === 'plan') {
      const plan = planSchema.parse(value);
      if (plan.stageId !== req.stageId || req.status !== 'planning') return;
      await this.store.savePlan(plan);
      await this.record('planned', 'worker', req, `plan ${plan.hash.slice(0, 12)}: ${plan.steps.length} step(s)${plan.blocked ? `, blocked: ${plan.blocked}` : ''}`);
      if (plan.blocked) {
        this.options.metrics?.remedyEnded('blocked');
        await this.store.update(req.id, { status: 'blocked', outcome: plan.blocked });
        await this.release(req, plan);
        await this.options.reporter.planned({ ...req, status: 'blocked' }, entry, plan);
        return;
      }
      if (plan.approval === 'none') {
        // Read-only stages (checks, checklists) need nobody's approval.
        await this.store.update(req.id, { status: 'running' });
        await this.options.reporter.planned({ ...req, status: 'running' }, entry, plan);
        await this.enqueueRun(plan, 'nobody (read-only)');
        return;
      }
      await this.store.update(req.id, { status: 'awaiting-approval' });
      await this.options.reporter.planned({ ...req, status: 'awaiting-approval' }, entry, plan);
      const delay = Math.max(0, this.expiresAt(plan).getTime() - Date.now());
      await this.botQueue?.add('expire', { requestId: req.id, stageId: plan.stageId, planHash: plan.hash }, { jobId: `expire-${req.id}-${plan.stageId}-${plan.hash.slice(0, 16)}`, delay, removeOnComplete: 1000, removeOnFail: 1000 });
      return;
    }
    const outcome = value as RunOutcome;
    const plan = await this.store.plan(req.id, req.stageId);
    if (!plan) return;
    if (outcome.status === 'waiting') {
      if (req.status !== 'cancelled') await this.store.update(req.id, { status: 'waiting' });
      return;
    }
    this.sealingKeys.delete(req.id);
    await this.record('outcome', 'worker', req, `${outcome.status}: ${outcome.message}`);
    if (outcome.status === 'cancelled') {
      this.options.metrics?.remedyEnded('cancelled');
      await this.store.update(req.id, { status: 'cancelled' });
      await this.release(req, plan);
      await this.options.reporter.cancelled({ ...req, status: 'cancelled' }, plan, (await this.redis.get(cancelKey(this.options.config.queuePrefix, req.id))) ?? 'someone');
      return;
    }
    const stage = findStage(entry, plan.stageId);
    await this.guards.unlockObjects(plan, req.id);
    if (outcome.status === 'completed' && stage?.then) {
      await this.store.update(req.id, { status: 'awaiting-decision' });
      await this.options.reporter.stageEnded({ ...req, status: 'awaiting-decision' }, plan, outcome, stage.then);
      return;
    }
    const status = outcome.status === 'completed' ? 'resolved' : outcome.status;
    this.options.metrics?.remedyEnded(status);
    await this.store.update(req.id, { status, outcome: outcome.message });
    if (status === 'resolved') await this.release(req, plan);
    await this.options.reporter.stageEnded({ ...req, status }, plan, outcome);
  }

  private async onFailed(req: RemedyRequest, reason: string): Promise<void> {
    this.options.metrics?.remedyEnded('failed');
    await this.store.update(req.id, { status: 'failed', outcome: reason });
    await this.guards.unlockObjects((await this.store.plan(req.id, req.stageId)) ?? ({ steps: [], cluster: req.cluster } as unknown as Plan), req.id);
    await this.record('outcome', 'worker', req, `failed: ${reason}`);
    await this.options.reporter.failed({ ...req, status: 'failed' }, reason);
  }

  private async onProgress(req: RemedyRequest, data: unknown): Promise<void> {
    const plan = await this.store.plan(req.id, req.stageId);
    if (!plan || typeof data !== 'object' || data === null) return;
    const p = data as StepProgress;
    if (p.status !== 'started') await this.record('step', 'worker', req, `step ${p.index + 1} ${p.status}: ${p.message}`);
    if (p.sealed) {
      const key = this.sealingKeys.get(req.id);
      const { sealed: _s, ...shown } = p;
      await this.options.reporter.progress(req, plan, shown);
      if (key) await this.options.reporter.revealed(req, plan, key.open(p.sealed));
      else await this.options.reporter.failed(req, 'The secret was read, but this bot no longer holds the key to open it (it restarted). Ask again.');
      return;
    }
    await this.options.reporter.progress(req, plan, p);
  }
}
