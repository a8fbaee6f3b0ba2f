import type { Plan } from '../../remedies/plan.js';
import type { RemedyRequest } from '../requests.js';
import { attemptKey, busySeconds, hhmm, unknownRemedy, type Answer, type LifecycleContext } from './context.js';
import type { Expiry } from './expiry.js';

/** What a click on the card of a remedy whose state was lost is told (its thread says why it was lost). */
const lostApproval = 'Nothing was done: this remedy\'s state was lost, and nothing more of it will run (its thread says why). Use "Plan again" there for a fresh plan.';

/**
 * The decision on an approval attempt: approved by an approver (then its exact plan is queued to
 * run) or denied. Exactly one decision of an attempt wins, across clicks, people and replicas.
 */
export class ApprovalDecisions {
  constructor(
    private readonly core: LifecycleContext,
    private readonly expiry: Expiry,
  ) {}

  /** An approver's click on an attempt's card. Exactly one decision of an attempt wins; anyone else is told why not. */
  async approve(requestId: string, stageId: string, attempt: string, user: string): Promise<Answer> {
    const ctx = await this.current(requestId, stageId, attempt);
    if (!ctx.ok) return ctx;
    const { request, plan } = ctx;
    const refusal = await this.core.options.policy.refusal(user, plan, request.requestedBy);
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
    if (!claim.won) {
      // Denied or cancelled meanwhile: that decision freed the objects, perhaps before they were locked just above.
      if (claim.verdict !== 'approved') await this.core.guards.unlockObjects(plan, requestId);
      return { ok: false, message: `Already ${claim.verdict} by ${this.core.name(claim.by)}.` };
    }
    const approvedAt = new Date().toISOString();
    await this.core.store.update(requestId, { status: 'running', approvedBy: user, approvedAt });
    await this.core.holdEntry(request, busySeconds);
    await this.core.enqueueRun(plan, user, attempt);
    await this.core.record('approved', user, request, `plan ${plan.hash.slice(0, 12)}`);
    await this.core.serial(requestId, () => this.core.options.reporter.approved({ ...request, status: 'running', approvedBy: user, approvedAt }, plan, user, false));
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
    await this.core.store.update(requestId, { status: 'denied', deniedBy: user }, this.core.recordIn('denied', user, request));
    await this.core.release(request, plan);
    this.core.options.metrics?.remedyEnded('denied');
    await this.core.serial(requestId, () => this.core.options.reporter.denied({ ...request, status: 'denied', deniedBy: user }, plan, user));
    return { ok: true };
  }

  /** Why a click on an attempt that no longer waits did nothing: who decided it, or what it is doing. */
  private async notWaiting(request: RemedyRequest, stageId: string, attempt: string): Promise<Answer> {
    // A lost remedy's decisions went with Redis's data: "it is lost" alone told the approver nothing.
    if (request.status === 'lost') return { ok: false, message: lostApproval };
    const decided = await this.core.store.decisionOf(request.id, attemptKey(stageId, attempt));
    if (decided) return { ok: false, message: decided.verdict === 'expired' ? 'This approval expired; nothing was done. Use "Plan again" for a fresh plan.' : `Already ${decided.verdict} by ${this.core.name(decided.by)}.` };
    return { ok: false, message: `This plan is no longer waiting for approval (it is ${request.status}).` };
  }

  private async current(requestId: string, stageId: string, attempt: string): Promise<({ ok: true; request: RemedyRequest; plan: Plan }) | { ok: false; message: string }> {
    const request = await this.core.store.get(requestId);
    if (!request) return { ok: false, message: unknownRemedy };
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
