import { findEntry, findStage } from '../catalogue/index.js';
import type { DeadlineJobData } from '../jobs/names.js';
import { cancelKey, parseJobId, runJobId } from '../jobs/names.js';
import type { RemedyRequest } from '../jobs/requests.js';
import { attemptKey, busySeconds, finished, lockMarginSeconds, questionKey, type RemedyCore } from './core.js';
import { minutesText } from './durations.js';
import { lostMessage, type LostCause } from './lost-state.js';
import type { Plan } from './plan.js';
import { planSchema } from './plan.js';
import type { RunOutcome, StepProgress } from './runner.js';

/** A bot that stays away longer than this starts from the newest events instead of its cursor. */
const cursorTtlSeconds = 14 * 24 * 3600;

/**
 * The remedy's side of what happens without a click: worker events (a plan made, a step done, a run
 * ended or failed) and deadlines (an approval attempt or a question that ran out). Each renews or
 * frees the entry's lock for the state it leaves the remedy in.
 */
export class RemedyEvents {
  constructor(
    private readonly core: RemedyCore,
    /** Looks for lost state; every event is a moment to look. */
    private readonly checkLost: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /**
   * Handles one queue event once, even with several bot replicas reading the same stream: the event's
   * stream id is claimed in Redis first. The cursor advances so a restarted bot resumes after it.
   * Events of an attempt that is no longer the request's current one change nothing.
   */
  onEvent(queue: string, cursorKey: string, eventId: string, jobId: string, handle: (req: RemedyRequest) => Promise<void>): void {
    const id = parseJobId(jobId);
    if (!id) return;
    // Not awaited here: a loss it finds is reported through this same request's chain.
    void this.checkLost();
    void this.core.serial(id.requestId, async () => {
      if (!(await this.core.store.once(`event:${queue}:${eventId}`))) return;
      const req = await this.core.store.get(id.requestId);
      if (req && req.attempt === id.attempt && req.status !== 'lost') await handle(req);
      await this.core.redis.set(cursorKey, eventId, 'EX', cursorTtlSeconds);
    });
  }

  async onCompleted(req: RemedyRequest, jobId: string, returnvalue: unknown): Promise<void> {
    const { store, options } = this.core;
    const value: unknown = typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue;
    const attempt = req.attempt!;
    const entry = findEntry(req.entryId);
    if (!entry) return;
    if (parseJobId(jobId)?.kind === 'plan') {
      const plan = planSchema.parse(value);
      if (plan.stageId !== req.stageId || req.status !== 'planning') return;
      await store.savePlan(plan);
      await this.core.record('planned', 'worker', req, `plan ${plan.hash.slice(0, 12)}: ${plan.steps.length} step(s)${plan.blocked ? `, blocked: ${plan.blocked}` : ''}`);
      if (plan.blocked) {
        options.metrics?.remedyEnded('blocked');
        await store.update(req.id, { status: 'blocked', outcome: plan.blocked });
        await this.core.release(req, plan);
        await options.reporter.planned({ ...req, status: 'blocked' }, entry, plan);
        return;
      }
      if (plan.approval === 'none') {
        // Read-only stages (checks, checklists) need nobody's approval.
        await store.update(req.id, { status: 'running' });
        await this.core.holdEntry(req, busySeconds);
        await options.reporter.planned({ ...req, status: 'running' }, entry, plan);
        await this.core.enqueueRun(plan, 'nobody (read-only)', attempt);
        return;
      }
      await store.update(req.id, { status: 'awaiting-approval' });
      const expires = this.core.expiresAt(plan);
      await this.core.holdEntry(req, (expires.getTime() - Date.now()) / 1000 + lockMarginSeconds);
      await options.reporter.planned({ ...req, status: 'awaiting-approval' }, entry, plan);
      await this.core.deadlines.schedule('expire', { requestId: req.id, stageId: plan.stageId, attempt }, expires);
      return;
    }
    const outcome = value as RunOutcome;
    const plan = await store.plan(req.id, req.stageId);
    if (!plan) return;
    if (outcome.status === 'waiting') {
      if (req.status !== 'cancelled') {
        await store.markWaiting(req.id, runJobId(req.id, plan.stageId, attempt, outcome.resumeFrom), Date.now() + outcome.seconds * 1000);
        await this.core.holdEntry(req, outcome.seconds + lockMarginSeconds);
      }
      return;
    }
    this.core.sealingKeys.delete(req.id);
    await this.core.record('outcome', 'worker', req, `${outcome.status}: ${outcome.message}`);
    if (outcome.status === 'cancelled') {
      options.metrics?.remedyEnded('cancelled');
      await store.update(req.id, { status: 'cancelled' });
      await this.core.release(req, plan);
      await options.reporter.cancelled({ ...req, status: 'cancelled' }, plan, (await this.core.redis.get(cancelKey(options.config.queuePrefix, req.id))) ?? 'someone');
      return;
    }
    const stage = findStage(entry, plan.stageId);
    await this.core.guards.unlockObjects(plan, req.id);
    if (outcome.status === 'completed' && stage?.then) {
      // The guide's question waits for an answer a limited time; then the remedy ends and frees the entry.
      const limit = options.config.decisionTimeoutMinutes;
      await store.update(req.id, { status: 'awaiting-decision' });
      await this.core.holdEntry(req, limit * 60 + lockMarginSeconds);
      await this.core.deadlines.schedule('unanswered', { requestId: req.id, stageId: plan.stageId, attempt }, new Date(Date.now() + limit * 60_000));
      await options.reporter.stageEnded({ ...req, status: 'awaiting-decision' }, plan, outcome, stage.then);
      return;
    }
    const status = outcome.status === 'completed' ? 'resolved' : outcome.status;
    options.metrics?.remedyEnded(status);
    await store.update(req.id, { status, outcome: outcome.message });
    // Whatever ended the stage, the entry is free: "Plan again" takes it back if nobody else has.
    await this.core.release(req, plan);
    await options.reporter.stageEnded({ ...req, status }, plan, outcome);
  }

  async onFailed(req: RemedyRequest, reason: string): Promise<void> {
    const { store, options } = this.core;
    options.metrics?.remedyEnded('failed');
    await store.update(req.id, { status: 'failed', outcome: reason });
    await this.core.release(req, await store.plan(req.id, req.stageId));
    await this.core.record('outcome', 'worker', req, `failed: ${reason}`);
    await options.reporter.failed({ ...req, status: 'failed' }, reason);
  }

  async onProgress(req: RemedyRequest, data: unknown): Promise<void> {
    const { store, options } = this.core;
    const plan = await store.plan(req.id, req.stageId);
    if (!plan || typeof data !== 'object' || data === null) return;
    const p = data as StepProgress;
    // Every step renews the entry's lock: a long run keeps it, a run nobody reports on loses it in time.
    if (!finished.has(req.status)) await this.core.holdEntry(req, busySeconds);
    if (p.status !== 'started') await this.core.record('step', 'worker', req, `step ${p.index + 1} ${p.status}: ${p.message}`);
    if (p.sealed) {
      const key = this.core.sealingKeys.get(req.id);
      const { sealed: _s, ...shown } = p;
      await options.reporter.progress(req, plan, shown);
      if (key) await options.reporter.revealed(req, plan, key.open(p.sealed));
      else await options.reporter.failed(req, 'The secret was read, but this bot no longer holds the key to open it (it restarted). Ask again.');
      return;
    }
    await options.reporter.progress(req, plan, p);
  }

  /** A deadline fell due. */
  deadline(kind: 'expire' | 'unanswered', d: DeadlineJobData): Promise<void> {
    return kind === 'expire' ? this.expire(d.requestId, d.stageId, d.attempt) : this.unanswered(d.requestId, d.stageId, d.attempt);
  }

  /**
   * Ends an attempt's wait for approval when its time is up: the card says it expired and offers a
   * fresh plan. Runs from the attempt's deadline, or from a click that comes too late; the first wins.
   */
  async expire(requestId: string, stageId: string, attempt: string): Promise<void> {
    const { store, options } = this.core;
    const request = await store.get(requestId);
    const plan = request && (await store.plan(requestId, stageId));
    if (!request || !plan || request.attempt !== attempt || request.status !== 'awaiting-approval' || request.stageId !== stageId) return;
    const claim = await store.claimDecision(requestId, attemptKey(stageId, attempt), 'nobody', 'expired');
    if (!claim.won) return;
    await store.update(requestId, { status: 'expired' });
    await this.core.release(request, plan);
    await this.core.record('expired', 'bot', request);
    await this.core.serial(requestId, () => options.reporter.expired({ ...request, status: 'expired' }, plan));
  }

  /** Ends a remedy whose question of the guide nobody answered within the limit, and frees its entry. */
  async unanswered(requestId: string, stageId: string, attempt: string): Promise<void> {
    const { store, options } = this.core;
    const request = await store.get(requestId);
    if (!request || request.attempt !== attempt || request.status !== 'awaiting-decision' || request.stageId !== stageId) return;
    const entry = findEntry(request.entryId);
    const question = entry && findStage(entry, stageId)?.then?.question;
    const claim = await store.claimDecision(requestId, questionKey(stageId, attempt), 'nobody', 'expired');
    if (!claim.won) return;
    const message = `Nobody answered "${question ?? 'the question'}" within ${minutesText(options.config.decisionTimeoutMinutes)}, so the remedy ends here. Ask for the fix again when you want to go on.`;
    await store.update(requestId, { status: 'unanswered', outcome: message });
    await this.core.release(request, undefined);
    await this.core.record('expired', 'bot', request, `unanswered: ${question ?? stageId}`);
    options.metrics?.remedyEnded('unanswered');
    await this.core.serial(requestId, () => options.reporter.remedyEnded({ ...request, status: 'unanswered' }, 'unanswered', message));
  }

  /**
   * Ends a remedy whose state Redis lost: written back as `lost` (so cancel, Plan again and the audit
   * trail agree), and its thread told that nothing more will run. Once, across replicas.
   */
  async lost(req: RemedyRequest, plan: Plan | undefined, cause: LostCause): Promise<void> {
    const { store, options } = this.core;
    if (!(await store.once(`lost:${req.id}:${req.stageId}:${req.attempt ?? ''}`))) return;
    const message = lostMessage(cause);
    const ended = { ...req, status: 'lost' as const, outcome: message };
    await store.restore(ended, plan);
    await this.core.release(req, plan);
    this.core.sealingKeys.delete(req.id);
    await this.core.record('lost', 'bot', req, cause === 'redis-emptied' ? 'Redis lost its data' : 'the continuation after the wait was missing');
    options.metrics?.remedyEnded('lost');
    await this.core.serial(req.id, () => options.reporter.failed(ended, message));
  }
}
