import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SharedFile } from '../../slack/files.js';
import type { HandlerDeps } from '../deps.js';
import { redisUnavailableMark } from '../../slack/replays.js';
import { answerPaste, tellUnanswered } from '../paste.js';

type Args = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/**
 * Messages in the channels the bot reads, and direct messages: a pasted error gets the matching
 * remedy in its thread. Bots, edits and joins are ignored; a redelivered event is answered once.
 */
export function pastedMessage(deps: HandlerDeps) {
  return async function pasted({ message, body, context }: Args): Promise<void> {
    const m = message as { subtype?: string; bot_id?: string; user?: string; text?: string; ts: string; thread_ts?: string; channel: string; channel_type?: string; files?: SharedFile[] };
    if (m.bot_id || (m.subtype !== undefined && m.subtype !== 'file_share') || !m.user) return;
    const direct = m.channel_type === 'im';
    const listen = deps.config.listenChannels;
    if (!direct && listen.length > 0 && !listen.includes(m.channel)) return;
    const paste = { channel: m.channel, user: m.user, threadTs: m.thread_ts ?? m.ts, text: m.text ?? '', ...(m.files ? { files: m.files } : {}) };
    // Listeners are also called without a context (tests inject only what they use).
    if ((context as Record<string, unknown> | undefined)?.[redisUnavailableMark] === true) {
      await tellUnanswered(deps, paste, direct).catch((err: unknown) => deps.logger.warn({ err: (err as Error).message, channel: m.channel }, 'could not tell the person their paste went unanswered'));
      return;
    }
    const eventId = (body as { event_id?: string }).event_id;
    if (eventId && !(await deps.coordinator.store.once(`event:${eventId}`))) return;
    try {
      await answerPaste(deps, paste, direct);
    } catch (err) {
      deps.logger.error({ err: (err as Error).message, channel: m.channel }, 'could not answer a pasted message');
    }
  };
}

/** Registers the message listener. */
export function registerMessages(app: App, deps: HandlerDeps): void {
  app.message(pastedMessage(deps));
}
