import { findEntry, findStage } from '../../catalogue/index.js';
import { planSchema } from '../../remedies/plan.js';
import type { StepProgress } from '../../remedies/runner.js';
import { cancelKey, parseJobId, runJobId, type RunResult } from '../names.js';
import type { RemedyRequest } from '../requests.js';
import { busySeconds, finished, lockMarginSeconds, type LifecycleContext } from './context.js';
import { auditDetail, checkedRun, resultOf } from './verification.js';

/**
 * The transitions the cluster's worker causes: a plan made, a step done, a run that ended or failed.
 * Each renews or frees the entry's lock for the state it leaves the remedy in. Called in order, once
 * per event (see queue-events.ts), only for the request's current attempt.
 */
export class WorkerEvents {
  constructor(private readonly core: LifecycleContext) {}

  async onCompleted(req: RemedyRequest, jobId: string, returnvalue: unknown): Promise<void> {
    const { store, options } = this.core;
    const value: unknown = typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue;
    const attempt = req.attempt!;
    const entry = findEntry(req.entryId);
    if (!entry) return;
    if (parseJobId(jobId)?.kind === 'plan') {
      const plan = planSchema.parse(value);
      if (plan.stageId !== req.stageId || req.status !== 'planning') return;
      await store.savePlan(plan, this.core.recordIn('planned', 'worker', req, `plan ${plan.hash.slice(0, 12)}: ${plan.steps.length} step(s)${plan.blocked ? `, blocked: ${plan.blocked}` : ''}`));
      if (plan.blocked) {
        options.metrics?.remedyEnded('blocked');
        await store.update(req.id, { status: 'blocked', outcome: plan.blocked });
        await this.core.release(req, plan);
        await this.core.keepPosted(req, await options.reporter.planned({ ...req, status: 'blocked' }, entry, plan, this.core.expiresAt(plan)));
        return;
      }
      if (plan.approval === 'none') {
        // Read-only stages (checks, checklists) need nobody's approval.
        await store.update(req.id, { status: 'running' });
        await this.core.holdEntry(req, busySeconds);
        await this.core.keepPosted(req, await options.reporter.planned({ ...req, status: 'running' }, entry, plan, this.core.expiresAt(plan)));
        await this.core.enqueueRun(plan, 'nobody (read-only)', attempt);
        return;
      }
      const expires = this.core.expiresAt(plan);
      await store.update(req.id, { status: 'awaiting-approval' }, this.core.holdEntryIn(req, (expires.getTime() - Date.now()) / 1000 + lockMarginSeconds));
      const posted = await options.reporter.planned({ ...req, status: 'awaiting-approval' }, entry, plan, expires);
      if (posted?.['unposted'] !== undefined) {
        // A card nobody saw cannot be approved or cancelled: waiting out its expiry held the entry in silence.
        await this.onFailed({ ...req, status: 'awaiting-approval' }, `The approval card could not be posted (${posted['unposted']}); nothing was done. Use "Plan again" for a fresh plan.`);
        return;
      }
      await this.core.keepPosted(req, posted);
      await this.core.deadlines.schedule('expire', { requestId: req.id, stageId: plan.stageId, attempt }, expires);
      return;
    }
    const ran = value as RunResult;
    const plan = await store.plan(req.id, req.stageId);
    if (!plan) return;
    if (ran.status === 'waiting') {
      if (req.status !== 'cancelled') {
        await store.markWaiting(req.id, runJobId(req.id, plan.stageId, attempt, ran.resumeFrom), Date.now() + ran.seconds * 1000);
        await this.core.holdEntry(req, ran.seconds + lockMarginSeconds);
      }
      return;
    }
    this.core.sealingKeys.delete(req.id);
    const outcome = checkedRun(ran, options.logger, req.id);
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
    const verification = outcome.status === 'completed' ? outcome.verification : undefined;
    if (verification) {
      await this.core.record('verified', 'worker', req, auditDetail(verification));
      options.metrics?.verified(resultOf(verification));
      // The look is the entry's latest check on the cluster: status shows it beside the last doctor's run.
      const report = { findings: [verification.finding], startedAt: new Date(Date.now() - verification.waitedMs).toISOString(), tookMs: verification.waitedMs };
      await this.core.doctorResults.record(req.cluster, req.requestedBy, report, [entry.id], new Date(), req.id).catch((err: unknown) => options.logger.warn({ err: (err as Error).message, cluster: req.cluster }, 'could not keep the doctor result'));
    }
    if (outcome.status === 'completed' && stage?.then) {
      // The guide's question waits for an answer a limited time; then the remedy ends and frees the entry.
      const limit = options.config.decisionTimeoutMinutes;
      await store.update(req.id, { status: 'awaiting-decision' });
      await this.core.holdEntry(req, limit * 60 + lockMarginSeconds);
      await this.core.deadlines.schedule('unanswered', { requestId: req.id, stageId: plan.stageId, attempt }, new Date(Date.now() + limit * 60_000));
      await options.reporter.stageEnded({ ...req, status: 'awaiting-decision' }, plan, outcome, stage.then);
      return;
    }
    // Where the detector can see the symptom, it decides: every step finished is not enough while it is still there.
    const stillPresent = verification?.finding.state === 'present';
    const status = outcome.status === 'completed' ? (stillPresent ? 'not-resolved' : 'resolved') : outcome.status;
    options.metrics?.remedyEnded(status);
    await store.update(req.id, { status, outcome: stillPresent ? auditDetail(verification) : outcome.message });
    // Whatever ended the stage, the entry is free: "Plan again" takes it back if nobody else has.
    await this.core.release(req, plan);
    await options.reporter.stageEnded({ ...req, status }, plan, outcome);
  }

  async onFailed(req: RemedyRequest, reason: string): Promise<void> {
    const { store, options } = this.core;
    options.metrics?.remedyEnded('failed');
    await store.update(req.id, { status: 'failed', outcome: reason });
    const plan = await store.plan(req.id, req.stageId);
    await this.core.release(req, plan);
    await this.core.record('outcome', 'worker', req, `failed: ${reason}`);
    await options.reporter.failed({ ...req, status: 'failed' }, reason, plan);
  }

  async onProgress(req: RemedyRequest, data: unknown): Promise<void> {
    const { store, options } = this.core;
    const plan = await store.plan(req.id, req.stageId);
    if (!plan || typeof data !== 'object' || data === null) return;
    const p = data as StepProgress;
    // Every step renews the entry's lock: a long run keeps it, a run nobody reports on loses it in time.
    if (!finished.has(req.status)) await this.core.holdEntry(req, busySeconds);
    if (p.status !== 'started' && p.status !== 'looking') await this.core.record('step', 'worker', req, `step ${p.index + 1} ${p.status}: ${p.message}`);
    if (p.sealed) {
      const key = this.core.sealingKeys.get(req.id);
      const { sealed: _s, ...shown } = p;
      await options.reporter.progress(req, plan, shown);
      if (key) await options.reporter.revealed(req, plan, key.open(p.sealed));
      else await options.reporter.failed(req, 'The secret was read, but this bot no longer holds the key to open it (it restarted). Ask again.', plan);
      return;
    }
    await options.reporter.progress(req, plan, p);
  }
}
