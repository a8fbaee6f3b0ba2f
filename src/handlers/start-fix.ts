import { closestIds, findEntry } from '../catalogue/index.js';
import { resolveParams } from '../catalogue/params.js';
import { findCluster } from '../config.js';
import { toUserError } from '../errors.js';
import type { Announcement } from '../remedies/coordinator.js';
import { esc } from './blocks/kit.js';
import { rootText } from './blocks/remedy.js';
import type { HandlerDeps } from './deps.js';

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

/** Checks a fix request without side effects; returns the answer to give at once when it is wrong. */
export function checkFixAsk(deps: HandlerDeps, ask: Pick<FixAsk, 'entryId' | 'cluster' | 'params'>): string | undefined {
  const entry = findEntry(ask.entryId);
  if (!entry) {
    const closest = closestIds(ask.entryId);
    return `There is no remedy \`${esc(ask.entryId)}\`.${closest.length > 0 ? ` Closest: ${closest.join(', ')}.` : ' See `/platform list`.'}`;
  }
  const cluster = ask.cluster ?? deps.config.defaultCluster;
  if (!findCluster(deps.config, cluster)) {
    return `There is no cluster \`${esc(cluster)}\`. Configured clusters: ${deps.config.clusters.map((c) => `\`${c.name}\``).join(', ')}.`;
  }
  const params = resolveParams(entry, ask.params ?? {});
  return params.ok ? undefined : esc(params.message);
}

/**
 * Starts a fix: the coordinator checks everything first (the person's limit, whether the entry is
 * being fixed already); only then is the fix announced (a root message, or a reply in the paste's
 * thread) and its first plan queued. Returns a message for the person alone when it did not start.
 */
export async function startFix(deps: HandlerDeps, ask: FixAsk): Promise<string | undefined> {
  const entry = findEntry(ask.entryId)!;
  const cluster = ask.cluster ?? deps.config.defaultCluster;
  let threadTs: string | undefined;
  const announce = async (): Promise<Announcement> => {
    try {
      const posted = await deps.outbox.remedy.postMessage({ channel: ask.channel, text: rootText(entry, cluster, ask.user), ...(ask.threadTs ? { thread_ts: ask.threadTs } : {}) });
      threadTs = ask.threadTs ?? posted.ts!;
      return { ok: true, context: { channel: ask.channel, threadTs, rootTs: posted.ts!, ...(ask.team ? { team: ask.team } : {}) } };
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message, channel: ask.channel }, 'could not post the root message');
      return { ok: false, message: 'I cannot post in this channel. Invite me first (`/invite @platform-medic`), or use a channel I am in.' };
    }
  };
  try {
    const started = await deps.coordinator.requestFix({ entryId: entry.id, cluster, requestedBy: ask.user, ...(ask.params ? { params: ask.params } : {}), announce });
    return started.ok ? undefined : started.message;
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
