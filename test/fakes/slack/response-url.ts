/**
 * Response URLs: where Bolt's respond() posts. Slack allows 5 uses within 30 minutes of issue, checks
 * the same Block Kit limits as chat.postMessage, and applies replace/delete/in_channel to the message
 * the interaction came from, which is what a user ends up seeing.
 */
import { LIMITS } from './block-kit-limits.js';
import { isEmpty, messageContent } from './methods.js';
import type { FakeIdentity } from './methods.js';
import type { BlockJson, ResponseOrigin, SlackState } from './state.js';

/** HTTP answer to a response_url post. */
export interface ResponseAnswer {
  status: number;
  body: { ok: boolean; error?: string; errors?: string[] };
}

const reject = (status: number, error: string, errors?: string[]): ResponseAnswer => ({
  status,
  body: errors === undefined ? { ok: false, error } : { ok: false, error, errors },
});

function applyToOrigin(
  state: SlackState,
  identity: FakeIdentity,
  origin: ResponseOrigin,
  body: Record<string, unknown>,
  content: { text?: string; blocks?: BlockJson[] },
): void {
  const { channel, messageTs } = origin;
  const original =
    channel !== undefined && messageTs !== undefined ? state.findMessage(channel, messageTs) : undefined;
  if (body.delete_original === true) {
    if (original !== undefined && channel !== undefined) {
      const list = state.channelMessages(channel);
      list.splice(list.indexOf(original), 1);
    }
    state.ephemerals = state.ephemerals.filter((e) => e.ts !== messageTs);
    return;
  }
  if (body.replace_original === true && messageTs !== undefined) {
    const target = original ?? state.ephemerals.find((e) => e.ts === messageTs);
    if (target !== undefined) {
      target.text = content.text ?? '';
      if (content.blocks !== undefined) target.blocks = content.blocks;
      else delete target.blocks;
    }
    return;
  }
  const ts = state.nextTs();
  const threadTs = typeof body.thread_ts === 'string' ? body.thread_ts : origin.threadTs;
  const common = { ts, ...(threadTs !== undefined ? { thread_ts: threadTs } : {}), text: content.text ?? '' };
  const blocks = content.blocks !== undefined ? { blocks: content.blocks } : {};
  if (body.response_type === 'in_channel' && channel !== undefined) {
    state.channelMessages(channel).push({
      type: 'message',
      channel,
      ...common,
      ...blocks,
      user: identity.botUserId,
      bot_id: identity.botId,
    });
    return;
  }
  state.ephemerals.push({ channel, user: origin.user, ...common, ...blocks, source: 'response_url' });
}

/** Handles one post to response URL `id` at fake-clock time `now`. */
export function answerResponsePost(
  state: SlackState,
  identity: FakeIdentity,
  id: string,
  body: unknown,
  now: number,
): ResponseAnswer {
  let entry = state.responseUrls.get(id);
  if (entry === undefined) {
    // A URL the test built by hand is issued on first use.
    entry = { issuedAt: now, uses: [] };
    state.responseUrls.set(id, entry);
  }
  if (now - entry.issuedAt > LIMITS.responseUrlWindowMs) return reject(404, 'expired_url');
  if (entry.uses.length >= LIMITS.responseUrlUses) return reject(404, 'used_too_many_times');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return reject(400, 'invalid_payload');
  const payload = body as Record<string, unknown>;
  const checked = messageContent(payload);
  if ('rejected' in checked) return reject(400, 'invalid_blocks', checked.rejected.errors);
  if (isEmpty(checked.content) && payload.delete_original !== true) return reject(400, 'no_text');
  entry.uses.push(now);
  applyToOrigin(state, identity, entry.origin ?? {}, payload, checked.content);
  return { status: 200, body: { ok: true } };
}
