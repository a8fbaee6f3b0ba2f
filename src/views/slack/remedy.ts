import type { CatalogueEntry, Decision } from '../../catalogue/model.js';
import type { RemedyRequest } from '../../jobs/requests.js';
import type { Plan, PlannedStep } from '../../remedies/plan.js';
import type { EndedRun, RemedyEnd } from '../../jobs/lifecycle/reporter.js';
import type { StepProgress } from '../../remedies/runner.js';
import { button, clip, context, esc, fitLines, header, limits, section, when, who, type Block } from './kit.js';
import { verdictOf, verificationLines, verificationText } from './verification.js';

/**
 * Action ids of the remedy buttons; one registration each in handlers/actions. Decision buttons share
 * a block, where action ids must be unique, so each carries its choice: `remedy-choose-<choice>`.
 */
export const actionIds = { approve: 'remedy-approve', deny: 'remedy-deny', choose: 'remedy-choose', replan: 'remedy-replan', cancel: 'remedy-cancel' } as const;

/** Matches every decision button's action id. */
export const chooseActionPattern = /^remedy-choose-[a-z0-9-]+$/;

/** What a plan button carries: the request, the stage and the approval attempt the card shows. */
export interface PlanRef {
  r: string;
  s: string;
  a: string;
}
/** What a decision button carries: the request, the stage, the choice and the attempt whose run asks. */
export interface ChoiceRef {
  r: string;
  s: string;
  c: string;
  a: string;
}

const riskLabel = { 'read-only': 'read-only', restart: 'restart', destructive: '*destructive*' } as const;
const approvalLabel = { none: 'no approval needed (read-only)', approver: 'needs one approver', 'second-person': 'needs an approver other than the person who asked' } as const;

/** The root message of a fix in the channel. */
export function rootText(entry: CatalogueEntry, cluster: string, requestedBy: string): string {
  return `${who(requestedBy)} asked to fix *${esc(entry.title)}* (\`${entry.id}\`, guide ${entry.ref}) on cluster \`${esc(cluster)}\`. Plan, approval and progress follow in this thread.`;
}

export function planningText(title: string, cluster: string): string {
  return `Planning _${esc(title)}_ on \`${esc(cluster)}\`: resolving the exact objects, read-only…`;
}

/** A planned step's lines, as the step kind wrote them; a person's checklist keeps its boxes. */
function stepLines(step: PlannedStep): string[] {
  return step.lines.map((l) => (l.startsWith('☐') ? esc(l) : `• ${esc(l)}`));
}

/** The card's state line: who asked, who decided and when, and the outcome so far. */
export interface CardState {
  readonly request: RemedyRequest;
  /** e.g. "Running step 2 of 4" or the outcome. */
  readonly status?: string;
  /** When the approval runs out, shown while the card waits. */
  readonly expiresAt?: Date | undefined;
}

/** Statuses in which a remedy can still be cancelled from its card. */
const cancellable = new Set(['running', 'waiting', 'awaiting-decision']);

/** The approval card: each step, its risk, the exact objects; Approve / Deny while it waits. */
export function approvalCard(entry: CatalogueEntry, plan: Plan, state: CardState): Block[] {
  const r = state.request;
  const stage = entry.stages.find((s) => s.id === plan.stageId);
  const blocks: Block[] = [
    header(`${plan.approval === 'none' ? 'Plan' : 'Approve'}: ${stage?.title ?? plan.stageId}`),
    section(`\`${entry.id}\` (guide ${entry.ref}) on cluster \`${esc(plan.cluster)}\` · asked by ${who(r.requestedBy)} · planned ${when(plan.plannedAt)}`),
  ];
  for (const step of plan.steps) {
    const title = `*${step.index + 1}. ${esc(step.does)}* — ${riskLabel[step.risk]}`;
    blocks.push(section(fitLines([title, ...stepLines(step)], limits.sectionText)));
  }
  if (plan.warnings.length > 0) blocks.push(context(clip(plan.warnings.map((w) => `⚠️ ${esc(w)}`).join('\n'), limits.sectionText)));
  const expiry = state.expiresAt && r.status === 'awaiting-approval' ? ` · expires ${when(state.expiresAt.toISOString())}` : '';
  blocks.push(context(`${approvalLabel[plan.approval]} · plan \`${plan.hash.slice(0, 12)}\`${expiry}`));
  const decided = r.approvedBy
    ? `✅ Approved by ${who(r.approvedBy)}${r.approvedAt ? ` at ${when(r.approvedAt)}` : ''}`
    : r.deniedBy
      ? `🚫 Denied by ${who(r.deniedBy)}`
      : undefined;
  if (plan.blocked) {
    blocks.push(context(`⛔ ${esc(plan.blocked)}`));
  } else if (r.status === 'awaiting-approval' && !decided) {
    const ref: PlanRef = { r: r.id, s: plan.stageId, a: r.attempt ?? '' };
    blocks.push({
      type: 'actions',
      block_id: `plan-${r.id}-${plan.stageId}`,
      elements: [button(actionIds.approve, 'Approve', ref, 'primary'), button(actionIds.deny, 'Deny', ref, 'danger'), button(actionIds.cancel, 'Cancel', { r: r.id })],
    });
  } else {
    blocks.push(context([decided, state.status].filter(Boolean).join(' · ') || esc(r.status)));
    if (cancellable.has(r.status)) blocks.push({ type: 'actions', block_id: `cancel-${r.id}-${plan.stageId}`, elements: [button(actionIds.cancel, 'Cancel remedy', { r: r.id }, 'danger')] });
  }
  return blocks;
}

/** Plain text of the card, for notifications and clients without blocks. */
export function approvalCardText(entry: CatalogueEntry, plan: Plan, request?: RemedyRequest): string {
  const what = request?.approvedBy ? `Approved by ${who(request.approvedBy)}` : request?.deniedBy ? `Denied by ${who(request.deniedBy)}` : plan.approval === 'none' ? 'Plan' : 'Approval needed';
  return `${what}: ${entry.id} on ${plan.cluster}, ${plan.steps.length} step(s).`;
}

const progressIcon: Record<StepProgress['status'], string> = {
  started: '▶️', done: '✅', skipped: '⏭️', failed: '❌', waiting: '⏳', changed: '⚠️', looking: '🩺',
};

/** One step's result, as a thread reply. */
export function progressBlocks(plan: Plan, p: StepProgress): { text: string; blocks: Block[] } {
  if (p.status === 'looking') {
    const look = `${progressIcon.looking} ${esc(p.message)}`;
    return { text: look, blocks: [section(look)] };
  }
  // A person's task is handed over, not ticked: it is theirs to do after this message.
  const icon = p.status === 'done' && plan.steps[p.index]?.kind === 'manual' ? '👉' : progressIcon[p.status];
  const head = `${icon} Step ${p.index + 1} of ${plan.steps.length}: ${esc(p.message)}`;
  const lines = (p.details ?? []).map((d) => `• ${esc(d)}`);
  return { text: head, blocks: [section(fitLines([head, ...lines]))] };
}

/**
 * The end of a stage: the outcome, and the guide's next question when it has one. After the last
 * stage, what the entry's detector saw: a symptom still present is the outcome, with no "done".
 */
export function stageEndBlocks(request: RemedyRequest, plan: Plan, outcome: EndedRun, decision?: Decision): { text: string; blocks: Block[] } {
  const verification = outcome.status === 'completed' ? outcome.verification : undefined;
  const verdict = verdictOf(outcome);
  const lookLines = verification ? verificationLines(verification, plan) : [];
  const blocks: Block[] = [];
  let text: string;
  if (verification && verdict === 'still-present') {
    text = verificationText(verification);
    blocks.push(section(fitLines(lookLines)));
  } else {
    const icon = outcome.status === 'completed' ? '✅' : outcome.status === 'changed' ? '⚠️' : '❌';
    const head = outcome.status === 'completed' ? 'Stage done: every step finished.' : `${outcome.status === 'changed' ? 'Stopped' : 'Failed'}: ${outcome.message}`;
    const details = 'details' in outcome && outcome.details ? outcome.details.map((d) => `• ${esc(d)}`) : [];
    blocks.push(section(fitLines([`${icon} ${esc(head)}`, ...details])));
    if (lookLines.length > 0) blocks.push(section(fitLines(lookLines)));
    text = `${icon} ${esc(head)}${verification && verdict === 'cleared' ? ` ${verificationText(verification)}` : ''}`;
  }
  if (decision) {
    blocks.push(section(`*${esc(decision.question)}*`));
    blocks.push({
      type: 'actions',
      block_id: `choose-${request.id}-${plan.stageId}`,
      elements: decision.choices.map((c) => button(`${actionIds.choose}-${c.id}`, c.label, { r: request.id, s: plan.stageId, c: c.id, a: request.attempt ?? '' } satisfies ChoiceRef, c.then && 'stage' in c.then ? 'danger' : 'primary')),
    });
  } else if (outcome.status !== 'completed') {
    blocks.push({
      type: 'actions',
      block_id: `replan-${request.id}-${plan.stageId}`,
      elements: [button(actionIds.replan, 'Plan again', { r: request.id, s: plan.stageId, a: request.attempt ?? '' } satisfies PlanRef)],
    });
  }
  return { text, blocks };
}

/**
 * The admin password, for the person who asked alone. mrkdwn would read a password's `<…>`, `&amp;`,
 * backticks or `:x:` as a link, an entity, code or an emoji, and show another password than the stored
 * one: the blocks show it as plain text; the notification text carries it escaped.
 */
export function secretBlocks(secret: string): { text: string; blocks: Block[] } {
  const head = '🔑 Admin password (only you can see this; it is not stored):';
  return {
    text: `${head} \`${esc(secret)}\``,
    blocks: [section(head), { type: 'section', text: { type: 'plain_text', text: secret, emoji: false } }],
  };
}

/** A plan or run job failed (cluster unreachable, permission missing…). */
export function failureBlocks(request: RemedyRequest, message: string): { text: string; blocks: Block[] } {
  // The notification text is mrkdwn too: a message carrying the cluster's words is escaped in both.
  const text = `❌ ${esc(message)}`;
  return {
    text,
    blocks: [
      section(text),
      { type: 'actions', block_id: `replan-${request.id}-${request.stageId}`, elements: [button(actionIds.replan, 'Plan again', { r: request.id, s: request.stageId, a: request.attempt ?? '' } satisfies PlanRef)] },
    ],
  };
}

/** The remedy's end, after the last decision (or the question nobody answered in time). */
export function endBlocks(end: RemedyEnd, message: string, by?: string): { text: string; blocks: Block[] } {
  const head = { resolved: '🎉 Resolved: ', 'not-resolved': '🛑 Not resolved: ', unanswered: '⌛ ' }[end];
  const text = `${head}${message}${by ? ` (answered by ${who(by)})` : ''}`;
  return { text, blocks: [section(text)] };
}

/** An approval that ran out: nothing was done; a fresh plan is one click away. */
export function expiredBlocks(request: RemedyRequest, plan: Plan): { text: string; blocks: Block[] } {
  const text = '⌛ The approval expired before anyone approved it; nothing was done.';
  return {
    text,
    blocks: [
      section(text),
      { type: 'actions', block_id: `replan-${request.id}-${plan.stageId}`, elements: [button(actionIds.replan, 'Plan again', { r: request.id, s: plan.stageId, a: request.attempt ?? '' } satisfies PlanRef)] },
    ],
  };
}
