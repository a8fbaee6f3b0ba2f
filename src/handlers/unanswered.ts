import type { AckFn, StringIndexed } from '@slack/bolt';
import type { Logger } from 'pino';
import { esc, noticeModal } from '../views/slack/kit.js';
import { platformCommandName } from './commands/index.js';

/** What the answers to requests no listener took need. */
export interface UnansweredDeps {
  readonly logger: Logger;
  /** Whether a listener failed on this request (it then threw before acknowledging it). */
  failedOn(body: object): boolean;
  /** Posts to an interaction's response_url: only the person who acted sees it. */
  respond(url: string, message: Record<string, unknown>): Promise<void>;
  /** Opens a modal that only says `text`, with an interaction's trigger_id. */
  notify(triggerId: string, text: string): Promise<void>;
}

const failed = 'That did not work: the bot had a problem with this request. Nothing was done; try again.';
const olderBot = '(it may come from an older version of the bot); nothing was done.';

/** An id from a payload, short enough for a message or a log line. */
const idOf = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 60) : '?');

/** What the person is told about a request of `kind` that no listener took. */
function refusalOf(kind: string, body: StringIndexed): string {
  switch (kind) {
    case 'command':
      return `\`${esc(idOf(body.command))}\` is not a command of platform-medic; its command is \`${platformCommandName}\` (try \`${platformCommandName} help\`). Nothing was done.`;
    case 'shortcut':
    case 'message_action':
      return `platform-medic has no shortcut \`${esc(idOf(body.callback_id))}\` ${olderBot}`;
    case 'view_submission':
    case 'dialog_submission':
      return `This form is not one platform-medic knows ${olderBot}`;
    default:
      return `This button is not one platform-medic knows ${olderBot}`;
  }
}

/** The kind of a request, as Slack names it (a command has no type). */
function kindOf(body: StringIndexed): string {
  if (typeof body.command === 'string') return 'command';
  if (body.event !== undefined) return 'event';
  return typeof body.type === 'string' ? body.type : 'unknown';
}

/**
 * Answers at once a request that no listener acknowledged, the way Slack shows each kind: a command
 * in its acknowledgement (only the person sees it); a button, a message shortcut or a legacy dialog
 * acknowledged, then told through its response_url; a modal's submission by replacing the modal with
 * the refusal; a shortcut from the composer with a modal; a menu's options with none. A modal closed,
 * an event or Slack's app_rate_limited is acknowledged, and logged. When a listener failed on it, the
 * person is told that instead of "unknown".
 */
export async function answerUnacknowledged(body: StringIndexed, ack: AckFn<unknown>, deps: UnansweredDeps): Promise<void> {
  const kind = kindOf(body);
  const text = deps.failedOn(body) ? failed : refusalOf(kind, body);
  const log = deps.logger.child({ component: 'unanswered' });
  try {
    switch (kind) {
      case 'command':
        await ack({ response_type: 'ephemeral', text });
        break;
      case 'view_submission':
        await ack({ response_action: 'update', view: noticeModal(text) });
        break;
      case 'block_suggestion':
      case 'dialog_suggestion':
        await ack({ options: [] });
        break;
      case 'shortcut':
        await ack();
        if (typeof body.trigger_id === 'string') await deps.notify(body.trigger_id, text);
        break;
      case 'block_actions':
      case 'interactive_message':
      case 'message_action':
      case 'dialog_submission':
        await ack();
        if (typeof body.response_url === 'string') await deps.respond(body.response_url, { response_type: 'ephemeral', replace_original: false, text });
        break;
      default:
        await ack();
    }
  } catch (err) {
    log.warn({ err: (err as Error).message, kind }, 'could not answer a request no listener took');
    return;
  }
  if (kind === 'app_rate_limited') {
    // Slack holds back this app's events for the rest of the minute: pasted errors go unanswered meanwhile.
    log.warn({ team: idOf(body.team_id), minute: body.minute_rate_limited }, 'Slack is rate limiting the events it sends this app (more than 30,000 an hour from one workspace)');
    return;
  }
  const id = body.command ?? body.callback_id ?? body.view?.callback_id ?? body.actions?.[0]?.action_id ?? body.action_id ?? body.event?.type;
  log.info({ kind, id: idOf(id), failed: text === failed }, 'answered a request no listener took');
}
