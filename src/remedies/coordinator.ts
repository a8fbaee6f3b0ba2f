import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { findEntry, findStage } from '../catalogue/index.js';
import type { CatalogueEntry, Decision, Stage } from '../catalogue/model.js';
import type { Config } from '../config.js';
import { findCluster } from '../config.js';
import { clusterQueueName, parseJobId, planJobId, runJobId, type PlanJobData, type RunJobData } from '../jobs/names.js';
import { connectRedis } from '../jobs/redis.js';
import { RequestStore, type RemedyRequest } from '../jobs/requests.js';
import { planSchema, type Plan } from './plan.js';
import type { RunOutcome, StepProgress } from './runner.js';

/** How a surface (Slack, the terminal) shows a remedy's life to the people who asked. */
export interface RemedyReporter {
  planning(req: RemedyRequest, entry: CatalogueEntry, stage: Stage): Promise<void>;
  planned(req: RemedyRequest, entry: CatalogueEntry, plan: Plan): Promise<void>;
  approved(req: RemedyRequest, plan: Plan, by: string, auto: boolean): Promise<void>;
  denied(req: RemedyRequest, plan: Plan, by: string): Promise<void>;
  progress(req: RemedyRequest, plan: Plan, progress: StepProgress): Promise<void>;
  /** A stage ended; `decision` is the guide's next question when it has one. */
  stageEnded(req: RemedyRequest, plan: Plan, outcome: Exclude<RunOutcome, { status: 'waiting' }>, decision?: Decision): Promise<void>;
  remedyEnded(req: RemedyRequest, end: 'resolved' | 'not-resolved', message: string, by?: string): Promise<void>;
  /** A plan or run job failed; the message is safe to show. */
  failed(req: RemedyRequest, message: string): Promise<void>;
}

/** Who may approve: returns a refusal to show the person, or undefined when they may. */
export interface ApprovalPolicy {
  refusal(user: string, plan: Plan, requestedBy: string): string | undefined;
}

/** The approvers of the configuration, with the two-person rule for destructive steps. */
export function configuredApprovers(config: Config): ApprovalPolicy {
  return {
    refusal(user, plan, requestedBy) {
      if (config.approvers.length === 0) return 'No approvers are configured (PLATFORM_MEDIC_APPROVERS), so nobody can approve this.';
      if (!config.approvers.includes(user)) return `Only the configured approvers can approve this: ${config.approvers.map((a) => `<@${a}>`).join(', ')}.`;
      if (plan.approval === 'second-person' && user === requestedBy) return 'This plan has destructive steps: it needs an approver other than the person who asked.';
      return undefined;
    },
  };
}

/** The answer to a button press or a prompt: done, or why not. */
export type Answer = { ok: true; message?: string } | { ok: false; message: string };

/** What starting a fix needs. */
export interface FixRequest {
  readonly entryId: string;
  readonly cluster?: string;
  readonly requestedBy: string;
  /** The surface's routing for this request (e.g. Slack channel and thread), stored with it. */
  readonly context: Record<string, string>;
}

/** Options of the coordinator. */
export interface CoordinatorOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly reporter: RemedyReporter;
  readonly policy: ApprovalPolicy;
}

const jobDefaults = { attempts: 1, removeOnComplete: 1000, removeOnFail: 5000 } as const;

/**
 * The bot's side of every remedy: it starts plans, records approvals exactly once, enqueues runs of
 * exactly the approved plan, and turns queue events into reports. It never talks to a cluster.
 */
export class RemedyCoordinator {
  readonly store: RequestStore;
  private readonly redis: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly events: QueueEvents[] = [];
  private readonly eventConnections: Redis[] = [];
  /** Reports of one request are handled in order, one at a time. */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly options: CoordinatorOptions) {
    this.redis = connectRedis(options.config.redisUrl, 'client');
    this.redis.on('error', () => undefined);
    this.store = new RequestStore(this.redis, options.config.queuePrefix);
    for (const c of options.config.clusters) {
      this.queues.set(c.name, new Queue(clusterQueueName(c.name), { connection: this.redis, prefix: options.config.queuePrefix }));
    }
  }

  /** Subscribes to the queue events of every cluster; resolves once they listen. */
  async start(): Promise<void> {
    for (const c of this.options.config.clusters) {
      const connection = connectRedis(this.options.config.redisUrl, 'worker');
      connection.on('error', () => undefined);
      this.eventConnections.push(connection);
      const ev = new QueueEvents(clusterQueueName(c.name), { connection, prefix: this.options.config.queuePrefix });
      ev.on('completed', ({ jobId, returnvalue }) => this.onEvent(jobId, (req) => this.onCompleted(req, jobId, returnvalue)));
      ev.on('failed', ({ jobId, failedReason }) => this.onEvent(jobId, (req) => this.onFailed(req, failedReason)));
      ev.on('progress', ({ jobId, data }) => this.onEvent(jobId, (req) => this.onProgress(req, data)));
      ev.on('error', (err) => this.options.logger.warn({ err: err.message }, 'queue events connection error'));
      await ev.waitUntilReady();
      this.events.push(ev);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.events.map((e) => e.close()));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await Promise.allSettled([...this.chains.values()]);
    await Promise.allSettled([this.redis.quit(), ...this.eventConnections.map((c) => c.quit())]);
  }

  /** Starts a fix: checks the entry and cluster, records the request and enqueues its first plan. */
  async requestFix(req: FixRequest): Promise<{ ok: true; request: RemedyRequest } | { ok: false; message: string }> {
    const { config } = this.options;
    const entry = findEntry(req.entryId);
    if (!entry) return { ok: false, message: `There is no catalogue entry \`${req.entryId}\`.` };
    const clusterName = req.cluster ?? config.defaultCluster;
    if (!findCluster(config, clusterName)) {
      return { ok: false, message: `There is no cluster \`${clusterName}\`. Configured clusters: ${config.clusters.map((c) => `\`${c.name}\``).join(', ')}.` };
    }
    const stage = entry.stages[0]!;
    const request = await this.store.create({
      id: RequestStore.newId(),
      entryId: entry.id,
      cluster: clusterName,
      requestedBy: req.requestedBy,
      createdAt: new Date().toISOString(),
      stageId: stage.id,
      status: 'planning',
      context: JSON.stringify(req.context),
    });
    await this.enqueuePlan(request, stage.id);
    return { ok: true, request };
  }

  private async enqueuePlan(request: RemedyRequest, stageId: string): Promise<void> {
    const seq = await this.store.nextPlanSeq(request.id);
    const data: PlanJobData = { requestId: request.id, entryId: request.entryId, stageId, cluster: request.cluster, requestedBy: request.requestedBy };
    await this.queue(request.cluster).add('plan', data, { ...jobDefaults, jobId: planJobId(request.id, stageId, seq) });
  }

  private queue(cluster: string): Queue {
    const q = this.queues.get(cluster);
    if (!q) throw new Error(`no queue for cluster ${cluster}`);
    return q;
  }

  private async enqueueRun(plan: Plan, approvedBy: string): Promise<void> {
    const data: RunJobData = { plan, fromStep: 0, approvedBy };
    await this.queue(plan.cluster).add('run', data, { ...jobDefaults, jobId: runJobId(plan.requestId, plan.stageId, plan.hash, 0) });
  }

  /** An approver's click. Exactly one approval of a plan wins; anyone else is told why not. */
  async approve(requestId: string, stageId: string, planHash: string, user: string): Promise<Answer> {
    const ctx = await this.current(requestId, stageId, planHash);
    if (!ctx.ok) return ctx;
    const { request, plan } = ctx;
    const refusal = this.options.policy.refusal(user, plan, request.requestedBy);
    if (refusal) return { ok: false, message: refusal };
    if (request.status !== 'awaiting-approval') return { ok: false, message: `This plan is no longer waiting for approval (it is ${request.status}).` };
    const claim = await this.store.claimDecision(requestId, stageId, planHash, user, 'approved');
    if (!claim.won) return { ok: false, message: `Already ${claim.verdict} by <@${claim.by}>.` };
    const approvedAt = new Date().toISOString();
    await this.store.update(requestId, { status: 'running', approvedBy: user, approvedAt });
    await this.enqueueRun(plan, user);
    await this.serial(requestId, () => this.options.reporter.approved({ ...request, status: 'running', approvedBy: user, approvedAt }, plan, user, false));
    return { ok: true };
  }

  /** A denial, by an approver or by the person who asked. */
  async deny(requestId: string, stageId: string, planHash: string, user: string): Promise<Answer> {
    const ctx = await this.current(requestId, stageId, planHash);
    if (!ctx.ok) return ctx;
    const { request, plan } = ctx;
    if (user !== request.requestedBy && this.options.policy.refusal(user, { ...plan, approval: 'approver' }, request.requestedBy)) {
      return { ok: false, message: 'Only an approver or the person who asked can deny this plan.' };
    }
    if (request.status !== 'awaiting-approval') return { ok: false, message: `This plan is no longer waiting for approval (it is ${request.status}).` };
    const claim = await this.store.claimDecision(requestId, stageId, planHash, user, 'denied');
    if (!claim.won) return { ok: false, message: `Already ${claim.verdict} by <@${claim.by}>.` };
    await this.store.update(requestId, { status: 'denied', deniedBy: user });
    await this.serial(requestId, () => this.options.reporter.denied({ ...request, status: 'denied', deniedBy: user }, plan, user));
    return { ok: true };
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
    if (!claim.won) return { ok: false, message: `Already answered by <@${claim.by}>.` };
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
    const message = choice.then.message;
    await this.serial(requestId, () => this.options.reporter.remedyEnded({ ...request, status: end }, end, message, user));
    return { ok: true, message: choice.label };
  }

  /** Plans the current stage again after the cluster changed under an approved plan. */
  async replan(requestId: string, stageId: string, user: string): Promise<Answer> {
    const request = await this.store.get(requestId);
    if (!request || request.stageId !== stageId) return { ok: false, message: 'This remedy is no longer at that stage.' };
    if (request.status !== 'changed' && request.status !== 'failed') return { ok: false, message: `Nothing to plan again (the remedy is ${request.status}).` };
    const entry = findEntry(request.entryId)!;
    const stage = findStage(entry, stageId)!;
    await this.store.update(requestId, { status: 'planning' });
    await this.store.clearDecision(requestId);
    const { approvedBy: _a, approvedAt: _t, deniedBy: _d, ...rest } = request;
    const updated = { ...rest, status: 'planning' as const };
    await this.serial(requestId, () => this.options.reporter.planning(updated, entry, stage));
    await this.enqueuePlan(updated, stageId);
    return { ok: true, message: `Planning again for <@${user}>.` };
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
    const next = prev.then(fn).catch((err: unknown) => this.options.logger.error({ err, requestId }, 'reporting failed'));
    this.chains.set(requestId, next);
    void next.then(() => {
      if (this.chains.get(requestId) === next) this.chains.delete(requestId);
    });
    return next;
  }

  private onEvent(jobId: string, handle: (req: RemedyRequest) => Promise<void>): void {
    const id = parseJobId(jobId);
    if (!id) return;
    void this.serial(id.requestId, async () => {
      const req = await this.store.get(id.requestId);
      if (req) await handle(req);
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
      if (plan.blocked) {
        await this.store.update(req.id, { status: 'blocked', outcome: plan.blocked });
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
      return;
    }
    const outcome = value as RunOutcome;
    const plan = await this.store.plan(req.id, req.stageId);
    if (!plan) return;
    if (outcome.status === 'waiting') {
      await this.store.update(req.id, { status: 'waiting' });
      return;
    }
    const stage = findStage(entry, plan.stageId);
    if (outcome.status === 'completed' && stage?.then) {
      await this.store.update(req.id, { status: 'awaiting-decision' });
      await this.options.reporter.stageEnded({ ...req, status: 'awaiting-decision' }, plan, outcome, stage.then);
      return;
    }
    const status = outcome.status === 'completed' ? 'resolved' : outcome.status;
    await this.store.update(req.id, { status, outcome: outcome.message });
    await this.options.reporter.stageEnded({ ...req, status }, plan, outcome);
  }

  private async onFailed(req: RemedyRequest, reason: string): Promise<void> {
    await this.store.update(req.id, { status: 'failed', outcome: reason });
    await this.options.reporter.failed({ ...req, status: 'failed' }, reason);
  }

  private async onProgress(req: RemedyRequest, data: unknown): Promise<void> {
    const plan = await this.store.plan(req.id, req.stageId);
    if (!plan || typeof data !== 'object' || data === null) return;
    await this.options.reporter.progress(req, plan, data as StepProgress);
  }
}
