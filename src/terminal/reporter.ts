import type { CatalogueEntry, Decision, Stage } from '../catalogue/model.js';
import { approvalCard, endBlocks, failureBlocks, planningText, progressBlocks, stageEndBlocks } from '../views/slack/remedy.js';
import type { RemedyRequest } from '../jobs/requests.js';
import type { EndedRun, Posted, RemedyEnd, RemedyReporter } from '../jobs/lifecycle/reporter.js';
import type { Plan } from '../remedies/plan.js';
import type { StepProgress } from '../remedies/runner.js';
import { blocksToText, mrkdwnToText } from '../views/text.js';

/**
 * What an answer asks for, as a value: the session carries it out through the lifecycle, so the
 * reporter needs nothing but the terminal to print on.
 */
export type TerminalAction =
  | { readonly kind: 'approve' | 'deny'; readonly req: RemedyRequest; readonly plan: Plan }
  /** Approval by a second person at this terminal, who gives their name (two-person rule). */
  | { readonly kind: 'approve-as'; readonly req: RemedyRequest; readonly plan: Plan; readonly name: string }
  | { readonly kind: 'choose'; readonly req: RemedyRequest; readonly stageId: string; readonly choiceId: string }
  | { readonly kind: 'replan' | 'stop'; readonly req: RemedyRequest };

/** A question the terminal asks; each answer is a word the person types. */
export interface Question {
  /** The remedy that asks. */
  readonly requestId: string;
  readonly prompt: string;
  readonly answers: readonly { readonly keys: readonly string[]; readonly label: string; readonly action: TerminalAction }[];
  /** A question answered with free text (a name), besides the fixed answers. */
  readonly free?: { readonly label: string; readonly action: (text: string) => TerminalAction };
  /** What becomes of the remedy when the session ends with the question unanswered (quit, or the end of input). */
  readonly unanswered: string;
}

/** What the reporter needs from the terminal session. */
export interface TerminalIO {
  print(text: string): void;
  ask(q: Question): void;
  /** A remedy reached an end (or a question); lets a scripted session know when it may exit. */
  settled(requestId: string, done: boolean): void;
}

/** Shows a remedy's life in the terminal, with the Slack surface's content, and asks at its decision points. */
export class TerminalReporter implements RemedyReporter {
  constructor(
    private readonly io: TerminalIO,
    /** Whether the cluster of a plan applies the two-person rule. */
    private readonly secondPerson: (plan: Plan) => boolean = () => true,
  ) {}

  private tag(req: RemedyRequest): string {
    return `[${req.entryId} ${req.id}]`;
  }

  async planning(req: RemedyRequest, _entry: CatalogueEntry, stage: Stage): Promise<void> {
    this.io.print(`${this.tag(req)} ${mrkdwnToText(planningText(stage.title, req.cluster))}`);
  }

  async planned(req: RemedyRequest, entry: CatalogueEntry, plan: Plan): Promise<Posted> {
    // The card without its buttons: here the prompt below asks instead.
    const card = approvalCard(entry, plan, { request: { ...req, status: plan.approval === 'none' ? 'running' : req.status } }).filter((b) => b.type !== 'actions');
    this.io.print(blocksToText(card));
    if (plan.blocked) this.io.settled(req.id, true);
    else if (plan.approval !== 'none') this.askApproval(req, plan);
    return undefined;
  }

  /** Asks for the approval of a plan (again, after a name that was not a second person's). */
  askApproval(req: RemedyRequest, plan: Plan): void {
    // The session's queues go with it: an approval nobody gave is never given later.
    const unanswered = `${this.tag(req)} Left unapproved: nothing of it ran, and it ends with this session.`;
    if (plan.approval === 'second-person' && this.secondPerson(plan)) {
      this.io.ask({
        requestId: req.id,
        prompt: `${this.tag(req)} Destructive steps need a second person: the second approver types their name to approve, or d to deny`,
        answers: [{ keys: ['d', 'deny'], label: 'deny', action: { kind: 'deny', req, plan } }],
        free: { label: 'your name', action: (name) => ({ kind: 'approve-as', req, plan, name }) },
        unanswered,
      });
      return;
    }
    this.io.ask({
      requestId: req.id,
      prompt: `${this.tag(req)} Approve this plan? [a]pprove / [d]eny`,
      answers: [
        { keys: ['a', 'approve', 'y', 'yes'], label: 'approve', action: { kind: 'approve', req, plan } },
        { keys: ['d', 'deny', 'n', 'no'], label: 'deny', action: { kind: 'deny', req, plan } },
      ],
      unanswered,
    });
  }

  async approved(req: RemedyRequest, _plan: Plan, by: string, auto: boolean): Promise<void> {
    this.io.print(`${this.tag(req)} ${auto ? 'Read-only: running without approval.' : `Approved by ${by}; running.`}`);
  }

  async denied(req: RemedyRequest, _plan: Plan, by: string): Promise<void> {
    this.io.print(`${this.tag(req)} Denied by ${by}; nothing was done.`);
    this.io.settled(req.id, true);
  }

  async expired(req: RemedyRequest): Promise<void> {
    this.io.print(`${this.tag(req)} ⌛ The approval expired before anyone approved it; nothing was done.`);
    this.askReplan(req);
  }

  async cancelled(req: RemedyRequest, _plan: Plan | undefined, by: string): Promise<void> {
    this.io.print(`${this.tag(req)} 🛑 Cancelled by ${by}. Steps already done stay done; nothing else will run.`);
    this.io.settled(req.id, true);
  }

  async revealed(req: RemedyRequest, _plan: Plan, secret: string): Promise<void> {
    this.io.print(`${this.tag(req)} 🔑 Admin password (shown here only, not stored): ${secret}`);
  }

  async progress(req: RemedyRequest, plan: Plan, p: StepProgress): Promise<void> {
    if (p.status === 'started') return;
    this.io.print(`${this.tag(req)} ${blocksToText(progressBlocks(plan, p).blocks)}`);
  }

  async stageEnded(req: RemedyRequest, plan: Plan, outcome: EndedRun, decision?: Decision): Promise<void> {
    // The question is asked by the prompt below, once.
    const m = stageEndBlocks(req, plan, outcome);
    this.io.print(`${this.tag(req)} ${blocksToText(m.blocks.filter((b) => b.type !== 'actions'))}`);
    if (decision) {
      this.io.ask({
        requestId: req.id,
        prompt: `${this.tag(req)} ${decision.question} ${decision.choices.map((c, i) => `[${i + 1}] ${c.label}`).join(' / ')}`,
        answers: decision.choices.map((c, i) => ({ keys: [String(i + 1), c.id, c.label.toLowerCase()], label: c.label, action: { kind: 'choose', req, stageId: plan.stageId, choiceId: c.id } })),
        unanswered: `${this.tag(req)} "${decision.question}" left unanswered: the steps done stay done, nothing more of it runs, and it ends with this session.`,
      });
      return;
    }
    if (outcome.status !== 'completed') this.askReplan(req);
    else this.io.settled(req.id, true);
  }

  async remedyEnded(req: RemedyRequest, end: RemedyEnd, message: string): Promise<void> {
    this.io.print(`${this.tag(req)} ${blocksToText(endBlocks(end, message).blocks)}`);
    this.io.settled(req.id, true);
  }

  async failed(req: RemedyRequest, message: string): Promise<void> {
    this.io.print(`${this.tag(req)} ${blocksToText(failureBlocks(req, message).blocks.filter((b) => b.type !== 'actions'))}`);
    this.askReplan(req);
  }

  private askReplan(req: RemedyRequest): void {
    this.io.ask({
      requestId: req.id,
      prompt: `${this.tag(req)} Plan again? [p]lan again / [s]top`,
      answers: [
        { keys: ['p', 'plan', 'y', 'yes'], label: 'plan again', action: { kind: 'replan', req } },
        { keys: ['s', 'stop', 'n', 'no'], label: 'stop', action: { kind: 'stop', req } },
      ],
      unanswered: `${this.tag(req)} Not planned again: nothing more of it runs, and it ends with this session.`,
    });
  }
}
