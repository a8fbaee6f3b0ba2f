import type { StoredMessage } from '../../test/fakes/slack-api.js';
import type { Percentiles } from './stats.js';

/** What the parent and the services child say to each other about Slack messages. */

/** True when the message has a button whose action_id starts with `prefix`. */
export function hasButton(m: Pick<StoredMessage, 'blocks'>, prefix: string): boolean {
  return (m.blocks ?? []).some((b) => b.type === 'actions' && (b as unknown as { elements: { action_id: string }[] }).elements.some((e) => e.action_id.startsWith(prefix)));
}

/** Ask for the approval card of the fix started in `channel`, and a response URL for a click on it. */
export interface CardRequest {
  readonly channel: string;
  readonly responseId: string;
  /** The fix command's own response URL id: a refusal because the entry is busy comes there, privately. */
  readonly fixResponseId: string;
  readonly user: string;
  readonly timeoutMs: number;
}

/** The card as the clicking user's Slack client would echo it back, and the click's response URL; or the entry was busy. */
export type CardAnswer =
  | { readonly busy: false; readonly message: Pick<StoredMessage, 'ts' | 'thread_ts' | 'text' | 'blocks'>; readonly responseUrl: string }
  | { readonly busy: true };

/** What the bot did in a channel, as the fake Slack saw it. */
export interface ChannelSummary {
  /** Root messages (one per started fix). */
  readonly roots: number;
  /** Approval cards posted (one per plan that needs approval). */
  readonly cards: number;
  /** Fixes refused because the entry was already being fixed on the cluster. */
  readonly refusedBusy: number;
  /** Fixes refused by the per-person hourly limit. */
  readonly refusedRate: number;
  /** Web API calls the fake answered with ok:false. */
  readonly failures: number;
  /** Web API calls by method, over the whole run. */
  readonly calls: Record<string, number>;
}

/** What the fake Slack child announces when ready. */
export interface ServicesInfo {
  readonly apiUrl: string;
  readonly url: string;
  readonly botToken: string;
}

/** Where and as whom the services child denies the load's approval cards. */
export interface DenierOptions {
  readonly port: number;
  readonly secret: string;
  readonly channel: string;
  readonly user: string;
}

/** The denials the services child sent during the load. */
export interface DenierResult {
  readonly denied: number;
  readonly ack: Percentiles;
  readonly errors: number;
}
