import { findEntry, findStage } from '../../catalogue/index.js';
import type { Plan } from '../../remedies/plan.js';
import type { AuditTrail } from '../audit.js';
import { RedisEpoch } from '../epoch.js';
import { cancelKey, parseJobId } from '../names.js';
import { connectRedis } from '../redis.js';
import { RequestStore, type RemedyRequest } from '../requests.js';
import { limitMessage, requestFix, type FixRequest } from './admission.js';
import { attemptKey, busySeconds, finished, hhmm, LifecycleContext, questionKey, type CoordinatorOptions } from './context.js';
import { Expiry } from './expiry.js';
import { endLostRemedy, LostStateWatch } from './lost-state.js';
import { ClusterEventFeed } from './queue-events.js';
import { WorkerEvents } from './worker-events.js';

export type { ApprovalPolicy, ApproverCheck } from './approval-policy.js';
export type { CoordinatorOptions } from './context.js';
export type { Posted, RemedyEnd, RemedyReporter } from './reporter.js';
export type { Announcement, FixRequest } from './admission.js';

/** The answer to a button press or a prompt: done, or why not. */
export type Answer = { ok: true; message?: string } | { ok: false; message: string };

/**
 * The bot's side of the queues: it admits fixes, records approvals exactly once per attempt, enqueues
 * runs of exactly the approved plan, and hands queue events (queue-events.ts, worker-events.ts) and
 * deadlines (expiry.ts) to their transitions. It never talks to a cluster, and renders nothing: the
 * surface's reporter does. Every decision is appended to the audit trail.
 */
export class RemedyCoordinator {
  private readonly core: LifecycleContext;
  private readonly expiry: Expiry;
  private readonly feed: ClusterEventFeed;
  private deadlineConnection: ReturnType<typeof connectRedis> | undefined;
  /** Notices that Redis lost the state of open remedies, and ends them in their threads. */
  private readonly watch: LostStateWatch;

  constructor(private readonly options: CoordinatorOptions) {
    const core = new LifecycleContext(options);
    this.core = core;
    this.expiry = new Expiry(core);
    this.watch = new LostStateWatch({
      store: core.store,
      epoch: new RedisEpoch(core.redis, options.config.queuePrefix),
      logger: options.logger,
      continuationExists: async (req) => (await core.queue(req.cluster).getJobState(req.resumeJob ?? '')) !== 'unknown',
      lost: (req, plan, cause) => endLostRemedy(core, req, plan, cause),
    });
    this.feed = new ClusterEventFeed(core, new WorkerEvents(core), () => this.watch.check());
    // A reconnect is when an emptied Redis shows first.
    core.redis.on('ready', () => void this.watch.check());
  }

  get store(): RequestStore {
    return this.core.store;
  }

  get audit(): AuditTrail {
    return this.core.audit;
  }

  /**
   * Subscribes to the queue events of every cluster, from where this deployment last read them, so a
   * bot that restarts misses nothing, and starts handling deadlines; resolves once they listen.
   */
  async start(): Promise<void> {
    await this.watch.start();
    this.deadlineConnection = connectRedis(this.options.config.redisUrl, 'worker');
    this.core.outage.watchConnection(this.deadlineConnection);
    this.core.deadlines.start(this.deadlineConnection, (kind, data) => this.expiry.due(kind, data));
    await this.feed.start();
  }

  /** Stops reading events and deadlines and lets queued reports finish; the Redis connection given stays open for its owner. */
  async close(): Promise<void> {
    this.watch.stop();
    await this.core.deadlines.close();
    await this.feed.close();
    await this.core.close();
    await this.deadlineConnection?.quit().catch(() => undefined);
  }

  /**
   * Starts a fix. Every check comes first (see admission.ts); only then is the fix announced and its
   * first plan queued, so a refusal is the person's alone and never counts against their limit.
   */
  requestFix(req: FixRequest): Promise<{ ok: true; request: RemedyRequest } | { ok: false; message: string }> {
    return requestFix(this.core, req);
  }

  /** The clusters whose remedies and audit records a person may see as an approver, and why none when a group could not be read. */
  async approvableClusters(user: string): Promise<{ clusters: string[]; note?: string }> {
    const clusters: string[] = [];
    let note: string | undefined;
    for (const c of this.options.config.clusters) {
      const checked = await this.options.policy.check(user, c.name);
      if (checked.approver) clusters.push(c.name);
      else note ??= checked.note;
    }
    return { clusters, ...(clusters.length === 0 && note ? { note } : {}) };
  }

  /** An approver's click on an attempt's card. Exactly one decision of an attempt wins; anyone else is told why not. */
  async approve(requestId: string, stageId: string, attempt: string, user: string): Promise<Answer> {
    const ctx = await this.current(requestId, stageId, attempt);
    if (!ctx.ok) return ctx;
    const { request, plan } = ctx;
    const refusal = await this.options.policy.refusal(user, plan, request.requestedBy);
    if (refusal) {
      await this.core.record('approval-refused', user, request, refusal);
      return { ok: false, message: refusal };
    }
    if (request.status !== 'awaiting-approval') return this.notWaiting(request, stageId, attempt);
    const expires = this.core.expiresAt(plan);
    if (Date.now() > expires.getTime()) {
      await this.expiry.expire(requestId, stageId, attempt);
      return { ok: false, message: `This approval expired at ${hhmm(expires)}; nothing was done. Use "Plan again" for a fresh plan.` };
    }
    const lock = await this.core.guards.lockObjects(plan, { requestId, entryId: request.entryId, requestedBy: request.requestedBy });
    if (lock) {
      return { ok: false, message: `${lock.object} is being changed by another remedy (\`${lock.holder.entryId}\`, asked by ${this.core.name(lock.holder.requestedBy)}); approve this once it ends.` };
    }
    const claim = await this.core.store.claimDecision(requestId, attemptKey(stageId, attempt), user, 'approved');
    if (!claim.won) return { ok: false, message: `Already ${claim.verdict} by ${this.core.name(claim.by)}.` };
    const approvedAt = new Date().toISOString();
    await this.core.store.update(requestId, { status: 'running', approvedBy: user, approvedAt });
    await this.core.holdEntry(request, busySeconds);
    await this.core.enqueueRun(plan, user, attempt);
    await this.core.record('approved', user, request, `plan ${plan.hash.slice(0, 12)}`);
    await this.core.serial(requestId, () => this.options.reporter.approved({ ...request, status: 'running', approvedBy: user, approvedAt }, plan, user, false));
    return { ok: true };
  }

  /** A denial, by an approver or by the person who asked. */
  async deny(requestId: string, stageId: string, attempt: string, user: string): Promise<Answer> {
    const ctx = await this.current(requestId, stageId, attempt);
    if (!ctx.ok) return ctx;
    const { request, plan } = ctx;
    const refusal = await this.core.steeringRefusal(request, user, 'deny this plan');
    if (refusal) return { ok: false, message: refusal };
    if (request.status !== 'awaiting-approval') return this.notWaiting(request, stageId, attempt);
    const claim = await this.core.store.claimDecision(requestId, attemptKey(stageId, attempt), user, 'denied');
    if (!claim.won) return { ok: false, message: `Already ${claim.verdict} by ${this.core.name(claim.by)}.` };
    await this.core.store.update(requestId, { status: 'denied', deniedBy: user });
    await this.core.release(request, plan);
    await this.core.record('denied', user, request);
    this.options.metrics?.remedyEnded('denied');
    await this.core.serial(requestId, () => this.options.reporter.denied({ ...request, status: 'denied', deniedBy: user }, plan, user));
    return { ok: true };
  }

  /**
   * Cancels a remedy that waits (for approval, for a wait of the guide, for an answer) or runs: a
   * queued continuation is removed; a running stage stops before its next step.
   */
  async cancel(requestId: string, user: string): Promise<Answer> {
    const request = await this.core.store.get(requestId);
    if (!request) return { ok: false, message: 'This remedy is no longer known (it may have expired).' };
    const refusal = await this.core.steeringRefusal(request, user, 'cancel this remedy');
    if (refusal) return { ok: false, message: refusal };
    if (request.status === 'lost') return { ok: false, message: "Nothing to cancel: this remedy's state was lost, and nothing more of it will run." };
    if (finished.has(request.status)) return { ok: false, message: `Nothing to cancel: the remedy is ${request.status}.` };
    const once = await this.core.store.once(`cancel:${requestId}`);
    if (!once) return { ok: false, message: 'It is already being cancelled.' };
    await this.core.redis.set(cancelKey(this.options.config.queuePrefix, requestId), user, 'EX', 7 * 24 * 3600);
    const plan = await this.core.store.plan(requestId, request.stageId);
    const removed = await this.removeQueued(request, plan);
    const stillRunning = request.status === 'running' && !removed;
    await this.core.store.update(requestId, { status: stillRunning ? request.status : 'cancelled', outcome: `cancelled by ${user}` });
    await this.core.record('cancelled', user, request, stillRunning ? 'stops before the next step' : undefined);
    if (!stillRunning) {
      this.options.metrics?.remedyEnded('cancelled');
      await this.core.release(request, plan);
      await this.core.serial(requestId, () => this.options.reporter.cancelled({ ...request, status: 'cancelled' }, plan, user));
      return { ok: true };
    }
    return { ok: true, message: 'Cancelling: the running step finishes, then the remedy stops.' };
  }

  /** Removes the jobs of a request that have not started (a plan, a delayed continuation). */
  private async removeQueued(request: RemedyRequest, plan: Plan | undefined): Promise<boolean> {
    const q = this.core.queue(request.cluster);
    let removed = false;
    const jobs = await q.getJobs(['waiting', 'delayed', 'prioritized']);
    for (const j of jobs) {
      if (j.id && parseJobId(j.id)?.requestId === request.id) removed = (await q.remove(j.id)) === 1 || removed;
    }
    return removed || request.status !== 'running' || plan === undefined;
  }

  /**
   * An answer to the guide's decision point ("still failing?"), by the person who asked or an approver:
   * plans the next stage or ends. `attempt` is the run that asked (absent on older buttons).
   */
  async choose(requestId: string, stageId: string, choiceId: string, user: string, attempt?: string): Promise<Answer> {
    const request = await this.core.store.get(requestId);
    if (!request) return { ok: false, message: 'This remedy is no longer known (it may have expired).' };
    const entry = findEntry(request.entryId);
    const stage = entry && findStage(entry, stageId);
    const choice = stage?.then?.choices.find((c) => c.id === choiceId);
    if (!entry || !stage || !choice) return { ok: false, message: 'That choice does not belong to this remedy.' };
    const refusal = await this.core.steeringRefusal(request, user, `answer "${stage.then!.question}"`);
    if (refusal) return { ok: false, message: refusal };
    const about = questionKey(stageId, attempt || (request.attempt ?? ''));
    const decided = await this.core.store.decisionOf(requestId, about);
    if (decided?.verdict === 'expired') return { ok: false, message: 'Nobody answered this question in time, so the remedy ended. Ask for the fix again when you want to go on.' };
    if (decided) return { ok: false, message: `Already answered by ${this.core.name(decided.by)}.` };
    if (request.status !== 'awaiting-decision' || request.stageId !== stageId || (attempt && attempt !== request.attempt)) return { ok: false, message: `This question was already answered (the remedy is ${request.status}).` };
    const claim = await this.core.store.claimDecision(requestId, about, user, 'approved');
    if (!claim.won) return { ok: false, message: claim.verdict === 'expired' ? 'Nobody answered this question in time, so the remedy ended.' : `Already answered by ${this.core.name(claim.by)}.` };
    await this.core.record('decision', user, request, `${stage.then!.question} → ${choice.label}`);
    if ('stage' in choice.then) {
      const next = findStage(entry, choice.then.stage)!;
      await this.core.store.update(requestId, { stageId: next.id, status: 'planning' });
      await this.core.holdEntry(request, busySeconds);
      await this.core.store.clearDecision(requestId);
      const { approvedBy: _a, approvedAt: _t, deniedBy: _d, ...rest } = request;
      const updated = { ...rest, stageId: next.id, status: 'planning' as const };
      await this.core.serial(requestId, () => this.options.reporter.planning(updated, entry, next));
      await this.core.enqueuePlan(updated, next.id);
      return { ok: true, message: choice.label };
    }
    const end = choice.then.end;
    await this.core.store.update(requestId, { status: end, outcome: choice.then.message });
    await this.core.release(request, undefined);
    await this.core.record('outcome', user, request, end);
    this.options.metrics?.remedyEnded(end);
    const message = choice.then.message;
    await this.core.serial(requestId, () => this.options.reporter.remedyEnded({ ...request, status: end }, end, message, user));
    return { ok: true, message: choice.label };
  }

  /**
   * Plans the current stage again after the cluster changed, a failure, or an expired approval, as a
   * new approval attempt. Only the person who asked and the cluster's approvers may; it counts against
   * the person's hourly limit like a fix, and a double click plans once.
   */
  async replan(requestId: string, stageId: string, user: string): Promise<Answer> {
    const request = await this.core.store.get(requestId);
    if (!request || request.stageId !== stageId) return { ok: false, message: 'This remedy is no longer at that stage.' };
    if (!['changed', 'failed', 'expired', 'lost'].includes(request.status)) return { ok: false, message: `Nothing to plan again (the remedy is ${request.status}).` };
    const refusal = await this.core.steeringRefusal(request, user, 'plan this remedy again');
    if (refusal) return { ok: false, message: refusal };
    const ticket = `${requestId}-${request.attempt ?? ''}-${RequestStore.newId()}`;
    if (!(await this.core.guards.reserve(user, this.options.config.fixesPerUserPerHour, ticket))) {
      await this.core.record('refused', user, request, 'plan again: hourly limit');
      return { ok: false, message: limitMessage(this.options.config) };
    }
    const holder = await this.core.holdEntry(request, busySeconds);
    if (holder) {
      await this.core.guards.unreserve(user, ticket);
      return { ok: false, message: `\`${request.entryId}\` is being fixed by another remedy now (asked by ${this.core.name(holder.requestedBy)}).` };
    }
    if (!(await this.core.store.once(`replan:${requestId}:${request.attempt ?? ''}`))) {
      await this.core.guards.unreserve(user, ticket);
      return { ok: false, message: 'It is already being planned again.' };
    }
    const entry = findEntry(request.entryId)!;
    const stage = findStage(entry, stageId)!;
    await this.core.store.update(requestId, { status: 'planning' });
    await this.core.store.clearDecision(requestId);
    const { approvedBy: _a, approvedAt: _t, deniedBy: _d, ...rest } = request;
    const updated = { ...rest, status: 'planning' as const };
    await this.core.serial(requestId, () => this.options.reporter.planning(updated, entry, stage));
    await this.core.enqueuePlan(updated, stageId);
    return { ok: true, message: `Planning again for ${this.core.name(user)}.` };
  }

  /** Why a click on an attempt that no longer waits did nothing: who decided it, or what it is doing. */
  private async notWaiting(request: RemedyRequest, stageId: string, attempt: string): Promise<Answer> {
    const decided = await this.core.store.decisionOf(request.id, attemptKey(stageId, attempt));
    if (decided) return { ok: false, message: decided.verdict === 'expired' ? 'This approval expired; nothing was done. Use "Plan again" for a fresh plan.' : `Already ${decided.verdict} by ${this.core.name(decided.by)}.` };
    return { ok: false, message: `This plan is no longer waiting for approval (it is ${request.status}).` };
  }

  private async current(requestId: string, stageId: string, attempt: string): Promise<({ ok: true; request: RemedyRequest; plan: Plan }) | { ok: false; message: string }> {
    const request = await this.core.store.get(requestId);
    if (!request) return { ok: false, message: 'This remedy is no longer known (it may have expired).' };
    const plan = await this.core.store.plan(requestId, stageId);
    if (!plan || request.attempt !== attempt || request.stageId !== stageId) {
      // A card of an earlier attempt: say what became of it when that is known.
      const decided = await this.core.store.decisionOf(requestId, attemptKey(stageId, attempt));
      if (decided?.verdict === 'expired') return { ok: false, message: 'This approval expired; nothing was done. Use "Plan again" for a fresh plan.' };
      return { ok: false, message: 'This card shows an older plan; use the newest card in the thread.' };
    }
    return { ok: true, request, plan };
  }
}
