import { findEntry, findStage } from '../../catalogue/index.js';
import type { DeadlineJobData } from '../names.js';
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
}
