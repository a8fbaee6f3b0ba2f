import { checkFix, requestFix } from '../core/fix.js';
import { fixCommand } from '../core/fix-hint.js';
import { code, t } from '../core/view.js';
import { toUserError } from '../errors.js';
import type { Announcement } from '../jobs/lifecycle/coordinator.js';
import { mrkdwn } from '../views/slack/answer.js';
import { rootText } from '../views/slack/remedy.js';
import type { HandlerDeps } from './deps.js';
import { cannotPostHere, inviteFirst, slackRefusal } from './slack-refusals.js';

/** What a person asked to fix, from a command or a "Plan fix" button. */
export interface FixAsk {
  readonly entryId: string;
  readonly cluster?: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly user: string;
  readonly channel: string;
  /** The workspace asked from; its approval card answers clicks from this workspace only. */
  readonly team?: string;
  /** The thread to work in (a pasted message's thread); absent: a new root message in the channel. */
  readonly threadTs?: string;
}

/** Checks a fix request without side effects (the core's one check); returns the answer to give at once when it is wrong. */
export function checkFixAsk(deps: HandlerDeps, ask: Pick<FixAsk, 'entryId' | 'cluster' | 'params'>): string | undefined {
  const checked = checkFix(deps.config, ask);
  return checked.ok ? undefined : mrkdwn(checked.view.summary);
}

/** The link to the fix's announcement, for `status`; a Slack that does not give one costs nothing but the link. */
async function permalinkOf(deps: HandlerDeps, channel: string, ts: string): Promise<string | undefined> {
  try {
    return await deps.permalink?.(channel, ts);
  } catch (err) {
    deps.logger.debug({ err: (err as Error).message, channel }, 'no permalink for the fix message');
    return undefined;
  }
}

/** A person's direct message with the bot: Slack's ids of such conversations begin with D. */
const isDirectMessage = (channel: string): boolean => /^D[A-Z0-9]+$/.test(channel);

/**
 * Why a fix may not be asked for where it was: in a direct message with the bot its card would be seen by the
 * person alone, so someone who cannot approve it would hold the entry until the approval expired, with no
 * approver able to deny or cancel it. An approver of the cluster may (they can approve or cancel it there).
 */
async function whereRefusal(deps: HandlerDeps, ask: FixAsk, entryId: string, cluster: string): Promise<string | undefined> {
  if (!isDirectMessage(ask.channel)) return undefined;
  const { clusters } = await deps.coordinator.approvableClusters(ask.user);
  if (clusters.includes(cluster)) return undefined;
  // The line to type quotes the person's values: as text, so a backtick typed in one cannot end its code span.
  return mrkdwn(t`A fix asked for in a direct message would have its approval card here, where no approver of ${code(cluster)} can see it. Ask for it in a channel (${code(`/platform ${fixCommand(entryId, ask.cluster, ask.params)}`)} there); nothing was done.`);
}

/**
 * Why a fix's announcement was not posted, for the person: an invitation only when Slack says the bot may not post
 * there; any other refusal (`internal_error`, a timeout) is Slack's moment, which asking again gets past.
 */
function notAnnounced(err: unknown): string {
  if (cannotPostHere(err)) return inviteFirst('or use a channel I am in.');
  const refused = slackRefusal(err);
  const why = refused !== undefined ? `Slack refused to post the fix in this channel (${refused})` : "Slack did not take the fix's message in this channel (no answer)";
  return `${why}; nothing was done. Ask again in a moment.`;
}

/**
 * Starts a fix: the coordinator checks everything first (the person's limit, whether the entry is
 * being fixed already); only then is the fix announced (a root message, or a reply in the paste's
 * thread) and its first plan queued. Returns a message for the person alone when it did not start.
 */
export async function startFix(deps: HandlerDeps, ask: FixAsk): Promise<string | undefined> {
  const checked = checkFix(deps.config, ask);
  if (!checked.ok) return mrkdwn(checked.view.summary);
  const { entry, cluster } = checked;
  let threadTs: string | undefined;
  const announce = async (): Promise<Announcement> => {
    try {
      const posted = await deps.outbox.remedy.postMessage({ channel: ask.channel, text: rootText(entry, cluster, ask.user), ...(ask.threadTs ? { thread_ts: ask.threadTs } : {}) });
      threadTs = ask.threadTs ?? posted.ts!;
      const link = await permalinkOf(deps, ask.channel, posted.ts!);
      return { ok: true, context: { channel: ask.channel, threadTs, rootTs: posted.ts!, ...(link ? { link } : {}), ...(ask.team ? { team: ask.team } : {}) } };
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message, channel: ask.channel }, 'could not post the root message');
      return { ok: false, message: notAnnounced(err) };
    }
  };
  try {
    const elsewhere = await whereRefusal(deps, ask, entry.id, cluster);
    if (elsewhere) return elsewhere;
    const started = await requestFix(deps.coordinator, deps.config, { entryId: entry.id, cluster, requestedBy: ask.user, ...(ask.params ? { params: ask.params } : {}), announce });
    return started.ok ? undefined : mrkdwn(started.view.summary);
  } catch (err) {
    // Starting a fix talks to Redis alone: a service that does not answer can only be the queue.
    const unreachable = ['redis-unavailable', 'unreachable'].includes(toUserError(err).code);
    deps.logger.error({ err: (err as Error).message }, 'could not start the fix');
    const text = unreachable
      ? '❌ Could not queue the plan: the queue (Redis) is unreachable. Nothing was done; ask again once it is back.'
      : "❌ Could not start the fix because of an internal error; nothing was done. The bot's log has the details.";
    // Once the fix was announced, its thread says what became of it; before, only the person is told.
    if (!threadTs) return text;
    await deps.outbox.remedy.postMessage({ channel: ask.channel, thread_ts: threadTs, text }).catch(() => undefined);
    return undefined;
  }
}
