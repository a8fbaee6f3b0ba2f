import type { Logger } from 'pino';
import { findEntry } from '../catalogue/index.js';
import type { CatalogueEntry, Decision, Stage } from '../catalogue/model.js';
import type { RemedyRequest, RequestStore } from '../jobs/requests.js';
import type { EndedRun, Posted, RemedyEnd, RemedyReporter } from '../jobs/lifecycle/reporter.js';
import type { Plan } from '../remedies/plan.js';
import type { StepProgress } from '../remedies/runner.js';
import type { RemedyWrites } from '../slack/outbox.js';
import type { Block } from '../views/slack/kit.js';
import { who } from '../views/slack/kit.js';
import { approvalCard, approvalCardText, endBlocks, expiredBlocks, failureBlocks, planningText, progressBlocks, rootText, secretBlocks, stageEndBlocks } from '../views/slack/remedy.js';
import { verdictOf } from '../views/slack/verification.js';

/** Where a request's conversation lives in Slack. */
export interface SlackThread {
  channel: string;
  threadTs: string;
  /** The message announcing the fix (the thread's root, or a reply in a paste's thread). */
  rootTs?: string;
  cardTs?: string;
  /** The announcement's permalink, as Slack gave it (shown by `status`). */
  link?: string;
  /** The workspace the fix was asked from: clicks on its card must come from the same one. */
  team?: string;
}

/**
 * Reports a remedy's life in its Slack thread: the approval card, step results, the outcome. Every
 * write is a remedy write of the outbox, so it goes ahead of any paste answer waiting.
 */
export class SlackReporter implements RemedyReporter {
  constructor(
    private readonly slack: RemedyWrites,
    /** The fix requests, as the lifecycle keeps them: a card's ts recorded after a report started is read here. */
    private readonly store: RequestStore,
    private readonly logger: Logger,
  ) {}

  private thread(req: RemedyRequest): SlackThread {
    return JSON.parse(req.context) as SlackThread;
  }

  private async reply(req: RemedyRequest, text: string, blocks?: Block[]): Promise<string | undefined> {
    return (await this.post(req, text, blocks)).ts;
  }

  /** A reply in the thread; what Slack said when it was refused. */
  private async post(req: RemedyRequest, text: string, blocks?: Block[]): Promise<{ ts?: string; error?: string }> {
    const t = this.thread(req);
    try {
      const res = await this.slack.postMessage({ channel: t.channel, thread_ts: t.threadTs, text, ...(blocks ? { blocks } : {}) });
      return res.ts ? { ts: res.ts } : {};
    } catch (err) {
      this.logger.error({ err: (err as Error).message, requestId: req.id }, 'could not post in the thread');
      return { error: (err as Error).message };
    }
  }

  /**
   * Updates the approval card. Updates are coalesced per card: while one is in flight, only the
   * newest of those that arrive is sent after it, so a fast run costs a few chat.update calls, not
   * one per step. A 429 waits for its Retry-After (the outbox does that).
   */
  private async updateCard(req: RemedyRequest, plan: Plan, status?: string): Promise<void> {
    const key = `${req.id}:${plan.stageId}`;
    const pending = this.cardUpdates.get(key);
    const update = { req, plan, ...(status ? { status } : {}) };
    if (pending) {
      pending.next = update;
      return pending.done;
    }
    const slot: { next?: typeof update; done: Promise<void> } = { done: Promise.resolve() };
    this.cardUpdates.set(key, slot);
    slot.done = (async () => {
      let current: typeof update | undefined = update;
      while (current) {
        await this.sendCard(current.req, current.plan, current.status);
        current = slot.next;
        slot.next = undefined;
      }
      this.cardUpdates.delete(key);
    })();
    return slot.done;
  }

  private readonly cardUpdates = new Map<string, { next?: { req: RemedyRequest; plan: Plan; status?: string }; done: Promise<void> }>();

  private async sendCard(req: RemedyRequest, plan: Plan, status?: string): Promise<void> {
    const entry = findEntry(req.entryId);
    const t = this.thread(await this.fresh(req));
    if (!entry || !t.cardTs) return;
    try {
      // No expiry on an update: every update shows a card that no longer waits for approval.
      await this.slack.update({ channel: t.channel, ts: t.cardTs, text: approvalCardText(entry, plan, req), blocks: approvalCard(entry, plan, { request: req, ...(status ? { status } : {}) }) });
    } catch (err) {
      this.logger.error({ err: (err as Error).message, requestId: req.id }, 'could not update the approval card');
    }
  }

  async expired(req: RemedyRequest, plan: Plan): Promise<void> {
    await this.updateCard(req, plan, 'expired');
    const m = expiredBlocks(req, plan);
    await this.reply(req, m.text, m.blocks);
  }

  async cancelled(req: RemedyRequest, plan: Plan | undefined, by: string): Promise<void> {
    if (plan) await this.updateCard(req, plan, `cancelled by ${who(by)}`);
    await this.reply(req, `🛑 Cancelled by ${who(by)}. Steps already done stay done; nothing else will run.`);
    await this.markRoot(req, '🛑 cancelled');
  }

  /** The secret goes to the person who asked, as an ephemeral message; the thread only says it was sent. */
  async revealed(req: RemedyRequest, _plan: Plan, secret: string): Promise<void> {
    const t = this.thread(req);
    try {
      await this.slack.postEphemeral({ channel: t.channel, user: req.requestedBy, thread_ts: t.threadTs, ...secretBlocks(secret) });
      await this.reply(req, `🔑 Sent privately to ${who(req.requestedBy)}.`);
    } catch (err) {
      this.logger.error({ err: (err as Error).message, requestId: req.id }, 'could not send the secret privately');
      await this.reply(req, '❌ Could not send the secret privately (is the bot in this channel?); it was not posted anywhere.');
    }
  }

  /** The stored record has the card's ts even when the caller's copy predates it. */
  private async fresh(req: RemedyRequest): Promise<RemedyRequest> {
    return (await this.store.get(req.id)) ?? req;
  }

  async planning(req: RemedyRequest, _entry: CatalogueEntry, stage: Stage): Promise<void> {
    await this.reply(req, planningText(stage.title, req.cluster));
  }

  /** Posts the approval card; returns its ts, which the lifecycle keeps so later reports update the card. */
  async planned(req: RemedyRequest, entry: CatalogueEntry, plan: Plan, expiresAt: Date): Promise<Posted> {
    const posted = await this.post(req, approvalCardText(entry, plan), approvalCard(entry, plan, { request: req, expiresAt }));
    return posted.ts ? { cardTs: posted.ts } : posted.error !== undefined ? { unposted: posted.error } : undefined;
  }

  async approved(req: RemedyRequest, plan: Plan): Promise<void> {
    await this.updateCard(req, plan, 'running');
  }

  async denied(req: RemedyRequest, plan: Plan, by: string): Promise<void> {
    await this.updateCard(req, plan, 'nothing was done');
    await this.reply(req, `🚫 <@${by}> denied the plan; nothing was done.`);
  }

  async progress(req: RemedyRequest, plan: Plan, p: StepProgress): Promise<void> {
    if (p.status === 'started') {
      await this.updateCard(req, plan, `running step ${p.index + 1} of ${plan.steps.length}`);
      return;
    }
    const m = progressBlocks(plan, p);
    await this.reply(req, m.text, m.blocks);
  }

  async stageEnded(req: RemedyRequest, plan: Plan, outcome: EndedRun, decision?: Decision): Promise<void> {
    const verdict = verdictOf(outcome);
    const shown = verdict === 'cleared' ? 'symptom cleared' : verdict === 'still-present' ? 'still present' : outcome.status === 'completed' ? 'done' : outcome.status;
    await this.updateCard(req, plan, `outcome: ${shown}`);
    const m = stageEndBlocks(req, plan, outcome, decision);
    await this.reply(req, m.text, m.blocks);
    if (!decision) await this.markRoot(req, verdict === 'still-present' ? '⚠️ still present' : outcome.status === 'completed' ? `✅ ${shown}` : `❌ ${outcome.status}`);
  }

  async remedyEnded(req: RemedyRequest, end: RemedyEnd, message: string, by?: string): Promise<void> {
    const m = endBlocks(end, message, by);
    await this.reply(req, m.text, m.blocks);
    await this.markRoot(req, { resolved: '🎉 resolved', 'not-resolved': '🛑 not resolved', unanswered: '⌛ unanswered' }[end]);
  }

  async failed(req: RemedyRequest, message: string, plan: Plan | undefined): Promise<void> {
    const lost = req.status === 'lost';
    if (plan) await this.updateCard(req, plan, lost ? 'state lost' : 'outcome: failed');
    const m = failureBlocks(req, message);
    await this.reply(req, m.text, m.blocks);
    if (lost) await this.markRoot(req, '❌ state lost');
  }

  /** Appends the outcome to the root message, so the channel sees it without opening the thread. */
  private async markRoot(req: RemedyRequest, outcome: string): Promise<void> {
    const entry = findEntry(req.entryId);
    const t = this.thread(req);
    if (!entry) return;
    try {
      await this.slack.update({ channel: t.channel, ts: t.rootTs ?? t.threadTs, text: `${rootText(entry, req.cluster, req.requestedBy)} — ${outcome}` });
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, requestId: req.id }, 'could not update the root message');
    }
  }
}
