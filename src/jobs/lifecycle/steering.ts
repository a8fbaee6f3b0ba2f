import { findEntry, findStage } from '../../catalogue/index.js';
import type { Plan } from '../../remedies/plan.js';
import { cancelKey, parseJobId } from '../names.js';
import { RequestStore, type RemedyRequest } from '../requests.js';
import { limitMessage } from './admission.js';
import { attemptKey, busySeconds, finished, questionKey, unknownRemedy, type Answer, type LifecycleContext } from './context.js';

/**
 * What the person who asked, or an approver, may do with a remedy besides approving it: cancel it,
 * answer the guide's question, plan a stage again.
 */
export class Steering {
  constructor(private readonly core: LifecycleContext) {}

  /**
   * Cancels a remedy that waits (for approval, for a wait of the guide, for an answer) or runs: a
   * queued continuation is removed; a running stage stops before its next step.
   */
  async cancel(requestId: string, user: string): Promise<Answer> {
    let request = await this.core.store.get(requestId);
    if (!request) return { ok: false, message: unknownRemedy };
    const refusal = await this.core.steeringRefusal(request, user, 'cancel this remedy');
    if (refusal) return { ok: false, message: refusal };
    if (request.status === 'lost') return { ok: false, message: "Nothing to cancel: this remedy's state was lost, and nothing more of it will run." };
    if (finished.has(request.status)) return { ok: false, message: `Nothing to cancel: the remedy is ${request.status}.` };
    if (request.status === 'awaiting-approval' && request.attempt !== undefined) {
      // A cancel decides the approval attempt as an Approve or a Deny does, so that exactly one of them wins
      // when they are clicked together: a lost race to an approval cancels the run it queues instead.
      const claim = await this.core.store.claimDecision(requestId, attemptKey(request.stageId, request.attempt), user, 'cancelled');
      if (!claim.won && claim.verdict === 'expired') return { ok: false, message: 'Nothing to cancel: this approval expired; nothing was done.' };
      if (!claim.won && claim.verdict !== 'approved') return { ok: false, message: `Nothing to cancel: the plan was already ${claim.verdict} by ${this.core.name(claim.by)}.` };
      if (!claim.won) request = { ...request, status: 'running' };
    }
    if (request.status === 'awaiting-decision') {
      // Likewise with an answer to the guide's question: an answer that wins goes on to plan the next
      // stage, which a cancel read before it could not stop; a cancel that wins leaves the answer nothing to do.
      const claim = await this.core.store.claimDecision(requestId, questionKey(request.stageId, request.attempt ?? ''), user, 'cancelled');
      if (!claim.won && claim.verdict === 'expired') return { ok: false, message: 'Nothing to cancel: nobody answered the question in time, so the remedy ended.' };
      if (!claim.won && claim.verdict !== 'cancelled') return { ok: false, message: `Not cancelled: ${this.core.name(claim.by)} has just answered the question, and its answer goes on; cancel from what follows in the thread.` };
    }
    const once = await this.core.store.once(`cancel:${requestId}`);
    if (!once) return { ok: false, message: 'It is already being cancelled.' };
    await this.core.redis.set(cancelKey(this.core.options.config.queuePrefix, requestId), user, 'EX', 7 * 24 * 3600);
    const plan = await this.core.store.plan(requestId, request.stageId);
    const removed = await this.removeQueued(request, plan);
    const stillRunning = (request.status === 'running' || request.status === 'waiting') && !removed;
    // A run still going keeps the status it has (an approval that won the race records its own "running"): written
    // here, "running" would outlive an approval cut off before its run was queued, which its deadline then ends.
    await this.core.store.update(requestId, stillRunning ? { outcome: `cancelled by ${user}` } : { status: 'cancelled', outcome: `cancelled by ${user}` });
    await this.core.record('cancelled', user, request, stillRunning ? 'stops before the next step' : undefined);
    if (!stillRunning) {
      this.core.options.metrics?.remedyEnded('cancelled');
      await this.core.release(request, plan);
      await this.core.serial(requestId, () => this.core.options.reporter.cancelled({ ...request, status: 'cancelled' }, plan, user));
      return { ok: true };
    }
    return { ok: true, message: 'Cancelling: the running step finishes, then the remedy stops.' };
  }

  /**
   * Removes the jobs of a request that have not started (a plan, a delayed continuation); true when nothing of
   * it runs any more. A remedy still "waiting" whose wait is over has its continuation running: its steps stop
   * before the next one, as a running stage's do, and until then the entry and its objects stay held.
   */
  private async removeQueued(request: RemedyRequest, plan: Plan | undefined): Promise<boolean> {
    const q = this.core.queue(request.cluster);
    let removed = false;
    const ours = (id: string | undefined) => id !== undefined && parseJobId(id)?.requestId === request.id;
    const jobs = await q.getJobs(['waiting', 'delayed', 'prioritized']);
    for (const j of jobs) {
      if (ours(j.id)) removed = (await q.remove(j.id!)) === 1 || removed;
    }
    if (removed || plan === undefined) return true;
    if (request.status === 'running') return false;
    if (request.status !== 'waiting') return true;
    return !(await q.getJobs(['active'])).some((j) => ours(j.id));
  }

  /**
   * An answer to the guide's decision point ("still failing?"), by the person who asked or an approver:
   * plans the next stage or ends. `attempt` is the run that asked (absent on older buttons).
   */
  async choose(requestId: string, stageId: string, choiceId: string, user: string, attempt?: string): Promise<Answer> {
    const request = await this.core.store.get(requestId);
    if (!request) return { ok: false, message: unknownRemedy };
    const entry = findEntry(request.entryId);
    const stage = entry && findStage(entry, stageId);
    const choice = stage?.then?.choices.find((c) => c.id === choiceId);
    if (!entry || !stage || !choice) return { ok: false, message: 'That choice does not belong to this remedy.' };
    const refusal = await this.core.steeringRefusal(request, user, `answer "${stage.then!.question}"`);
    if (refusal) return { ok: false, message: refusal };
    const about = questionKey(stageId, attempt || (request.attempt ?? ''));
    const decided = await this.core.store.decisionOf(requestId, about);
    if (decided?.verdict === 'expired') return { ok: false, message: 'Nobody answered this question in time, so the remedy ended. Ask for the fix again when you want to go on.' };
    if (decided?.verdict === 'cancelled') return { ok: false, message: `Nothing was done: the remedy was cancelled by ${this.core.name(decided.by)}.` };
    if (decided) return { ok: false, message: `Already answered by ${this.core.name(decided.by)}.` };
    if (request.status !== 'awaiting-decision' || request.stageId !== stageId || (attempt && attempt !== request.attempt)) return { ok: false, message: `This question was already answered (the remedy is ${request.status}).` };
    const claim = await this.core.store.claimDecision(requestId, about, user, 'approved');
    if (!claim.won) return { ok: false, message: claim.verdict === 'expired' ? 'Nobody answered this question in time, so the remedy ended.' : claim.verdict === 'cancelled' ? `Nothing was done: the remedy was cancelled by ${this.core.name(claim.by)}.` : `Already answered by ${this.core.name(claim.by)}.` };
    await this.core.record('decision', user, request, `${stage.then!.question} → ${choice.label}`);
    if ('stage' in choice.then) {
      const next = findStage(entry, choice.then.stage)!;
      await this.core.store.update(requestId, { stageId: next.id, status: 'planning' });
      await this.core.holdEntry(request, busySeconds);
      await this.core.store.clearDecision(requestId);
      const { approvedBy: _a, approvedAt: _t, deniedBy: _d, ...rest } = request;
      const updated = { ...rest, stageId: next.id, status: 'planning' as const };
      await this.core.serial(requestId, () => this.core.options.reporter.planning(updated, entry, next));
      await this.core.enqueuePlan(updated, next.id);
      return { ok: true, message: choice.label };
    }
    const end = choice.then.end;
    await this.core.store.update(requestId, { status: end, outcome: choice.then.message });
    await this.core.release(request, undefined);
    await this.core.record('outcome', user, request, end);
    this.core.options.metrics?.remedyEnded(end);
    const message = choice.then.message;
    await this.core.serial(requestId, () => this.core.options.reporter.remedyEnded({ ...request, status: end }, end, message, user));
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
    if (!(await this.core.guards.reserve(user, this.core.options.config.fixesPerUserPerHour, ticket))) {
      await this.core.record('refused', user, request, 'plan again: hourly limit');
      return { ok: false, message: limitMessage(this.core.options.config) };
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
    await this.core.serial(requestId, () => this.core.options.reporter.planning(updated, entry, stage));
    await this.core.enqueuePlan(updated, stageId);
    return { ok: true, message: `Planning again for ${this.core.name(user)}.` };
  }
}
