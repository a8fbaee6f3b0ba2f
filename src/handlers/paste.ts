import { match } from '../matching/index.js';
import type { MatchResult } from '../matching/types.js';
import { readSharedFiles, type SharedFile } from '../slack/files.js';
import { esc } from '../views/slack/kit.js';
import { ifReady, replyToPaste, type Evidenced } from '../core/paste.js';
import type { View } from '../core/view.js';
import { slackMessage } from '../views/slack/answer.js';
import type { Block } from '../views/slack/kit.js';
import type { HandlerDeps } from './deps.js';
import { looksLikeError } from './messages/looks-like-error.js';
import { fromSlackText, typedText } from './slack-text.js';

/** A pasted message to answer: who pasted it, its text, its files, and where its thread is. */
export interface Paste {
  readonly channel: string;
  /** The person who pasted it (or asked "Find remedy"): their budget pays for the answer. */
  readonly user: string;
  /** The thread to answer in: the message's own thread, or the message itself. */
  readonly threadTs: string;
  readonly text: string;
  readonly files?: readonly SharedFile[];
}

/** Plain chatter that matches nothing gets no answer, unless asked for (`always`). */
function silent(result: MatchResult, text: string, always: boolean): boolean {
  return result.verdict === 'no-match' && !always && result.note === undefined && !looksLikeError(text);
}

/**
 * The person alone reads the notice; where Slack refuses an ephemeral message (the person left the
 * channel), it is one line in the paste's thread instead.
 */
async function notify(deps: HandlerDeps, paste: Paste, text: string): Promise<void> {
  try {
    await deps.outbox.paste.postEphemeral({ channel: paste.channel, user: paste.user, text });
  } catch (err) {
    deps.logger.debug({ err: (err as Error).message, channel: paste.channel }, 'could not send the budget notice privately; posting it in the thread');
    await deps.outbox.paste.postMessage({ channel: paste.channel, thread_ts: paste.threadTs, text });
  }
}

/**
 * Takes the paste's answer from the person's and the channel's budgets. When either is spent the paste
 * is counted and logged (without its content), the person gets one notice per exhaustion, and otherwise
 * nothing: a flood of pastes must not become a flood of answers.
 */
async function admitted(deps: HandlerDeps, paste: Paste): Promise<boolean> {
  const admission = await deps.pasteBudget.admit(paste.user, paste.channel);
  if (admission.answer) return true;
  deps.metrics?.pasteDropped(admission.budget === 'user' ? 'user-budget' : 'channel-budget');
  deps.logger.debug({ user: paste.user, channel: paste.channel, budget: admission.budget, notice: admission.notice !== undefined }, 'paste not answered: its budget is spent');
  if (admission.notice) await notify(deps, paste, admission.notice);
  return false;
}

/** What the person reads when their pasted error could not be answered because Redis did not answer. */
export const unansweredPaste = 'I cannot answer this pasted error right now (the queue, Redis, does not answer); nothing was done. Paste it again in a minute.';

/**
 * For a paste that arrived while Redis did not answer (its replay check could not be made): tells the person,
 * only them, when it is one the bot would have answered (a shared file, a match, or text that looks like an
 * error); chatter still gets nothing. Nothing else is done: its budget and evidence live in Redis. The notices
 * have a budget of their own in memory (OutageNoticeBudget): a flood of pastes during an outage gets a few, each
 * person at least one a minute, and the rest are dropped with a log line that carries no paste text.
 */
export async function tellUnanswered(deps: HandlerDeps, sent: Paste, always: boolean): Promise<void> {
  const text = typedText(fromSlackText(sent.text, { mentions: 'drop' }));
  if ((sent.files?.length ?? 0) === 0 && silent(match(text), text, always)) return;
  const admission = deps.pasteBudget.whileAway.admit(sent.user);
  if (!admission.send) {
    deps.logger.info({ user: sent.user, channel: sent.channel, budget: admission.budget }, 'paste not answered while Redis does not answer; its notice was dropped: the notices of this minute are spent');
    return;
  }
  await notify(deps, sent, unansweredPaste);
}

/**
 * Matches a paste (text and shared text files) and answers in its thread, within the paste budgets and
 * behind every remedy message (the outbox's paste lane). When nothing matches, answers only if asked
 * (`always`) or if the text looks like an error; otherwise stays silent. Returns what it posted, or
 * undefined when it stayed silent, was over budget, or its answer waited too long and was dropped.
 *
 * A match or an ask is answered from the text at once while its candidates' detectors run on the
 * cluster; when their findings arrive (or the evidence timeout passes) the same message is updated
 * with them (chat.update). An update rather than a reply in the thread: the cluster can take back the
 * text's proposal (a symptom not seen), and a reply would leave the first message's primary "Plan
 * fix" pushing it; one message also costs no second post against Slack's per-channel pace.
 */
export async function answerPaste(deps: HandlerDeps, sent: Paste, always: boolean): Promise<string | undefined> {
  // Read as the person typed it: Slack's escapes undone (or the evidence would show `&amp;lt;`), mentions left out.
  const paste = { ...sent, text: typedText(fromSlackText(sent.text, { mentions: 'drop' })) };
  // Shared files and binary pastes always get an answer, so the budget is asked before downloading;
  // plain text is matched first, so chatter that gets no answer costs no budget.
  const shared = (paste.files?.length ?? 0) > 0;
  let result = shared ? undefined : match(paste.text);
  if (result && silent(result, paste.text, always)) return undefined;
  if (!(await admitted(deps, paste))) return undefined;
  const notes: string[] = [];
  /** How a file that was not plain UTF-8 was read (UTF-16, Windows-1252, bytes left out): said under the answer. */
  const readAs: string[] = [];
  let text = paste.text;
  if (!result) {
    const parts = [paste.text];
    for (const read of await readSharedFiles(paste.files ?? [], { botToken: deps.config.slack.botToken ?? '', maxBytes: deps.config.maxFileBytes, apiUrl: deps.config.slack.apiUrl })) {
      if (read.ok) parts.push(read.text);
      else notes.push(read.reason);
      if (read.ok && read.note) readAs.push(read.note);
    }
    text = parts.filter(Boolean).join('\n');
    result = match(text);
  }
  deps.metrics?.matched(result);
  const reply = replyToPaste(result, text, { config: deps.config, evidence: deps.pasteEvidence, user: paste.user });
  // A file's name is the sharer's text: escaped, so it cannot mention anyone or form a link.
  const shownNotes = notes.slice(0, 5).map((n) => `📎 ${esc(n)}`);
  const underneath = [...shownNotes, ...readAs.slice(0, 5).map((n) => `📎 ${esc(n)}`)];
  const render = (view: View): { text: string; blocks: Block[] } => {
    const answer = slackMessage(view);
    const blocks = underneath.length > 0 ? [...answer.blocks, { type: 'context' as const, elements: underneath.map((text) => ({ type: 'mrkdwn' as const, text })) }] : answer.blocks;
    // The notification text says first why a file was not read, rather than only "no match".
    return { text: notes.length > 0 ? `${shownNotes.join(' ')} ${answer.text}` : answer.text, blocks };
  };
  // Findings reused from another paste are there at once: one message with them, no update.
  const ready = await ifReady(reply.later);
  const first = render(ready?.view ?? reply.first);
  const posted = await deps.outbox.paste.postMessage({ channel: paste.channel, thread_ts: paste.threadTs, ...first });
  if (!posted) return undefined;
  if (reply.later && !ready && posted.ts) await showEvidence(deps, posted.channel ?? paste.channel, posted.ts, reply.later, render);
  return first.text;
}

/** Replaces a posted paste answer with the same answer and the cluster's evidence, when it arrives. */
async function showEvidence(deps: HandlerDeps, channel: string, ts: string, later: Promise<Evidenced>, render: (view: View) => { text: string; blocks: Block[] }): Promise<void> {
  const evidenced = await later;
  try {
    await deps.outbox.paste.update({ channel, ts, ...render(evidenced.view) });
  } catch (err) {
    deps.logger.warn({ err: (err as Error).message, channel }, 'could not add the cluster evidence to a paste answer');
  }
}
