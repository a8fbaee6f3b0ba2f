import type { AllMiddlewareArgs, App, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { SharedFile } from '../../slack/files.js';
import type { HandlerDeps } from '../deps.js';
import { answerPaste } from '../paste.js';
import { cannotPostHere, inviteFirst, slackRefusal } from '../slack-refusals.js';

type Args = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;

/** The callback id of the message shortcut "Find remedy" (see deploy/slack-app-manifest.yaml). */
export const findRemedyCallbackId = 'find_remedy';

/** Why "Find remedy" got no answer in the thread: an invitation only when Slack says the bot may not post there. */
function notAnswered(err: unknown): string {
  if (cannotPostHere(err)) return inviteFirst('then try "Find remedy" again.');
  const refused = slackRefusal(err);
  const why = refused !== undefined ? `Slack refused to post the answer in this thread (${refused})` : 'the bot or the queue (Redis) had a problem';
  return `That did not work: ${why}; nothing was posted. Try "Find remedy" again in a moment.`;
}

/**
 * "Find remedy" on any message: always answers, in the message's thread; if the bot cannot post
 * there, the answer goes to the person alone.
 */
export function findRemedyShortcut(deps: HandlerDeps) {
  return async function findRemedy({ shortcut, ack, respond }: Args): Promise<void> {
    await ack();
    const m = shortcut.message as { text?: string; ts: string; thread_ts?: string; files?: SharedFile[] };
    try {
      await answerPaste(deps, { channel: shortcut.channel.id, user: shortcut.user.id, threadTs: m.thread_ts ?? m.ts, text: m.text ?? '', ...(m.files ? { files: m.files } : {}) }, true);
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message }, 'could not answer the shortcut in the thread');
      await respond({ response_type: 'ephemeral', text: notAnswered(err) });
    }
  };
}

/** Registers the message shortcut. */
export function registerShortcuts(app: App, deps: HandlerDeps): void {
  app.shortcut<MessageShortcut>({ callback_id: findRemedyCallbackId, type: 'message_action' }, findRemedyShortcut(deps));
}
