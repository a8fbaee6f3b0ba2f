import { findEntry, findStage } from '../../catalogue/index.js';
import type { Plan } from '../../remedies/plan.js';
import type { DeadlineJobData } from '../names.js';
import type { RemedyRequest } from '../requests.js';
import { attemptKey, questionKey, type LifecycleContext } from './context.js';
import type { DeadlineKind } from './deadlines.js';
import { minutesText } from './durations.js';

/** Time enough for a click that decided an attempt to record what it starts (a few writes to Redis and a queued job). */
const decidingMs = 10_000;

/** Why a remedy whose approval was taken ended without its run (the run is queued only after it is recorded as running). */
const approvalCutOff = 'The approval was cut off before its run was queued (the bot stopped, or Redis failed, in between); nothing was done. Use "Plan again" for a fresh plan.';
/** Why a remedy whose question was answered ended there. */
const answerCutOff = 'The answer to the question was cut off before the next stage was planned (the bot stopped, or Redis failed, in between); nothing more was done. Ask for the fix again when you want to go on.';

/**
 * What runs out without anyone clicking: an approval attempt nobody approved, a question of the guide
 * nobody answered. Each is claimed like a decision, so a late click and its deadline never both win.
 */
export class Expiry {
  constructor(private readonly core: LifecycleContext) {}

  /** A deadline fell due. */
  due(kind: DeadlineKind, d: DeadlineJobData): Promise<void> {
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
    // Approved, and still waiting at its deadline: the approval was cut off (the bot stopped, or Redis failed) between
    // its decision and its run, which is queued only after the remedy is recorded as running. Nothing of it ran.
    if (!claim.won && claim.verdict === 'approved') {
      if (await this.stillWaiting(requestId, attempt, 'awaiting-approval', claim.at)) await this.cutOff(request, plan, approvalCutOff);
      return;
    }
    // Denied or cancelled, and still waiting: that click was cut off after taking the decision; what it decided is done now.
    if (!claim.won && (claim.verdict === 'denied' || claim.verdict === 'cancelled')) {
      if (await this.stillWaiting(requestId, attempt, 'awaiting-approval', claim.at)) await this.endAsDecided(request, claim.verdict === 'denied' ? { verdict: 'denied', plan } : { verdict: 'cancelled', plan }, claim.by);
      return;
    }
    if (!claim.won) return;
    await store.update(requestId, { status: 'expired' });
    await this.core.release(request, plan);
    await this.core.record('expired', 'bot', request);
    await this.core.serial(requestId, () => options.reporter.expired({ ...request, status: 'expired' }, plan));
  }

  /**
   * Whether a remedy whose attempt was decided still waits once the click that decided it has had the time to record
   * what it starts (a click at the very deadline is still doing so): then that click was cut off.
   */
  private async stillWaiting(requestId: string, attempt: string, status: 'awaiting-approval' | 'awaiting-decision', decidedAt: string | undefined): Promise<boolean> {
    const age = Date.now() - Date.parse(decidedAt ?? '');
    if (age < decidingMs) await new Promise((resolve) => setTimeout(resolve, decidingMs - age));
    const now = await this.core.store.get(requestId);
    return now?.status === status && now.attempt === attempt;
  }

  /** Ends a remedy as a Deny or Cancel cut off after its decision would have: in its thread, with what it held freed. */
  private async endAsDecided(request: RemedyRequest, decided: { verdict: 'denied'; plan: Plan } | { verdict: 'cancelled'; plan: Plan | undefined }, by: string): Promise<void> {
    const { store, options } = this.core;
    const { verdict, plan } = decided;
    const ended = { ...request, status: verdict, ...(verdict === 'denied' ? { deniedBy: by } : {}) };
    await store.update(request.id, verdict === 'denied' ? { status: verdict, deniedBy: by } : { status: verdict, outcome: `cancelled by ${by}` });
    await this.core.release(request, plan);
    await this.core.record(verdict, by, request, 'completed at the deadline: the click was cut off after taking the decision');
    options.metrics?.remedyEnded(verdict);
    // A denial is of a plan; a cancel may also come while the guide's question waits, after the stage's plan ran.
    await this.core.serial(request.id, () => (decided.verdict === 'denied' ? options.reporter.denied(ended, decided.plan, by) : options.reporter.cancelled(ended, plan, by)));
  }

  /** Ends a remedy whose decision (an approval, an answer) was cut off before what it starts, and frees what it held. */
  private async cutOff(request: RemedyRequest, plan: Plan | undefined, reason: string): Promise<void> {
    const { store, options } = this.core;
    await store.update(request.id, { status: 'failed', outcome: reason });
    await this.core.release(request, plan);
    await this.core.record('outcome', 'bot', request, `failed: ${reason}`);
    options.metrics?.remedyEnded('failed');
    await this.core.serial(request.id, () => options.reporter.failed({ ...request, status: 'failed' }, reason, plan));
  }

  /** Ends a remedy whose question of the guide nobody answered within the limit, and frees its entry. */
  async unanswered(requestId: string, stageId: string, attempt: string): Promise<void> {
    const { store, options } = this.core;
    const request = await store.get(requestId);
    if (!request || request.attempt !== attempt || request.status !== 'awaiting-decision' || request.stageId !== stageId) return;
    const entry = findEntry(request.entryId);
    const question = entry && findStage(entry, stageId)?.then?.question;
    const claim = await store.claimDecision(requestId, questionKey(stageId, attempt), 'nobody', 'expired');
    // Answered, and still asking at its deadline: the answer was cut off before it planned the next stage or ended.
    if (!claim.won && claim.verdict === 'approved') {
      if (await this.stillWaiting(requestId, attempt, 'awaiting-decision', claim.at)) await this.cutOff(request, undefined, answerCutOff);
      return;
    }
    // Cancelled, and still asking: the Cancel was cut off after taking the question; what it decided is done now.
    if (!claim.won && claim.verdict === 'cancelled') {
      if (await this.stillWaiting(requestId, attempt, 'awaiting-decision', claim.at)) await this.endAsDecided(request, { verdict: 'cancelled', plan: await store.plan(requestId, stageId) }, claim.by);
      return;
    }
    if (!claim.won) return;
    const message = `Nobody answered "${question ?? 'the question'}" within ${minutesText(options.config.decisionTimeoutMinutes)}, so the remedy ends here. Ask for the fix again when you want to go on.`;
    await store.update(requestId, { status: 'unanswered', outcome: message });
    await this.core.release(request, undefined);
    await this.core.record('expired', 'bot', request, `unanswered: ${question ?? stageId}`);
    options.metrics?.remedyEnded('unanswered');
    await this.core.serial(requestId, () => options.reporter.remedyEnded({ ...request, status: 'unanswered' }, 'unanswered', message));
  }
}
