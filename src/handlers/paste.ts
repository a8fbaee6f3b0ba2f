import type { webApi } from '@slack/bolt';
import { match } from '../matching/index.js';
import { readSharedFile, type SharedFile } from '../slack/files.js';
import { matchAnswer } from './blocks/match.js';
import type { HandlerDeps } from './deps.js';
import { looksLikeError } from './messages/looks-like-error.js';

/** A pasted message to answer: its text, its files, and where its thread is. */
export interface Paste {
  readonly channel: string;
  /** The thread to answer in: the message's own thread, or the message itself. */
  readonly threadTs: string;
  readonly text: string;
  readonly files?: readonly SharedFile[];
}

/**
 * Matches a paste (text and shared text files) and answers in its thread. When nothing matches,
 * answers only if asked (`always`) or if the text looks like an error; otherwise stays silent.
 * Returns what it posted, or undefined when it stayed silent.
 */
export async function answerPaste(deps: HandlerDeps, client: webApi.WebClient, paste: Paste, always: boolean): Promise<string | undefined> {
  const parts = [paste.text];
  const notes: string[] = [];
  for (const f of paste.files ?? []) {
    const read = await readSharedFile(f, { botToken: deps.config.slack.botToken ?? '', maxBytes: deps.config.maxFileBytes, apiUrl: deps.config.slack.apiUrl });
    if (read.ok) parts.push(read.text);
    else notes.push(read.reason);
  }
  const text = parts.filter(Boolean).join('\n');
  const result = match(text);
  // Shared files and binary pastes always get an answer; plain chatter that matches nothing does not.
  const shared = (paste.files?.length ?? 0) > 0;
  if (result.verdict === 'no-match' && !always && !shared && result.note === undefined && !looksLikeError(text)) return undefined;
  deps.metrics?.matched(result);
  const answer = matchAnswer(result);
  const blocks = notes.length > 0 ? [...answer.blocks, { type: 'context' as const, elements: notes.slice(0, 5).map((n) => ({ type: 'mrkdwn' as const, text: `📎 ${n}` })) }] : answer.blocks;
  await client.chat.postMessage({ channel: paste.channel, thread_ts: paste.threadTs, text: answer.text, blocks });
  return answer.text;
}
