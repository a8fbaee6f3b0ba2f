import { findEntry, findStage } from '../../catalogue/index.js';
import type { Plan } from '../../remedies/plan.js';
import type { DeadlineJobData } from '../names.js';
import type { RemedyRequest } from '../requests.js';
import { attemptKey, questionKey, type LifecycleContext } from './context.js';
import type { DeadlineKind } from './deadlines.js';
import { minutesText } from './durations.js';

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
    if (!claim.won && claim.verdict === 'approved') return this.cutOff(request, plan);
    if (!claim.won) return;
    await store.update(requestId, { status: 'expired' });
    await this.core.release(request, plan);
    await this.core.record('expired', 'bot', request);
    await this.core.serial(requestId, () => options.reporter.expired({ ...request, status: 'expired' }, plan));
  }

  /** Ends a remedy whose approval was cut off before its run was queued, and frees what the approval held. */
  private async cutOff(request: RemedyRequest, plan: Plan): Promise<void> {
    const { store, options } = this.core;
    const reason = `The approval was cut off before its run was queued (the bot stopped, or Redis failed, in between); nothing was done. Use "Plan again" for a fresh plan.`;
    await store.update(request.id, { status: 'failed', outcome: reason });
    await this.core.release(request, plan);
    await this.core.record('outcome', 'bot', request, 'failed: approval cut off before its run was queued');
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
    if (!claim.won) return;
    const message = `Nobody answered "${question ?? 'the question'}" within ${minutesText(options.config.decisionTimeoutMinutes)}, so the remedy ends here. Ask for the fix again when you want to go on.`;
    await store.update(requestId, { status: 'unanswered', outcome: message });
    await this.core.release(request, undefined);
    await this.core.record('expired', 'bot', request, `unanswered: ${question ?? stageId}`);
    options.metrics?.remedyEnded('unanswered');
    await this.core.serial(requestId, () => options.reporter.remedyEnded({ ...request, status: 'unanswered' }, 'unanswered', message));
  }
}
