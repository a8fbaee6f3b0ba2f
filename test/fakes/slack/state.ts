/**
 * What the fake Slack remembers: every call, and the messages, ephemerals, modals and response_url
 * posts as a user would now see them. Methods and the response_url endpoint change it; tests read it.
 */
import { EventEmitter } from 'node:events';

/** A Block Kit block as posted; the fake only guarantees it is an object with a type. */
export type BlockJson = { type: string; block_id?: string } & Record<string, unknown>;

/** One request the fake received, recorded whether or not Slack would have accepted it. */
export interface RecordedCall {
  /** Web API method (`chat.postMessage`), or `response_url` for posts to a response URL. */
  method: string;
  /** Decoded arguments; `blocks`, `view`, `attachments` parsed to objects. Never includes the token. */
  args: Record<string, unknown>;
  /** Fake clock time of the call, in milliseconds. */
  at: number;
  ok: boolean;
  error?: string;
  /** Slack's specific reasons for `invalid_blocks` / `invalid_arguments`. */
  errors?: string[];
  /** HTTP status the fake answered with (200 even for most errors, like Slack). */
  status: number;
}

/** A channel message in its current state (after chat.update, replace_original, …). */
export interface StoredMessage {
  type: 'message';
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks?: BlockJson[];
  attachments?: unknown[];
  metadata?: unknown;
  user: string;
  bot_id: string;
  edited?: { user: string; ts: string };
  reply_count?: number;
}

/** A message only one user can see: from chat.postEphemeral or an ephemeral response_url post. */
export interface StoredEphemeral {
  channel: string | undefined;
  user: string | undefined;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks?: BlockJson[];
  source: 'chat.postEphemeral' | 'response_url';
}

/** A post to a response URL, as received. */
export interface RecordedResponse {
  id: string;
  body: Record<string, unknown>;
  at: number;
  status: number;
  ok: boolean;
  error?: string;
  errors?: string[];
}

/** An open modal in its current state. */
export interface StoredView {
  id: string;
  hash: string;
  user?: string;
  view: Record<string, unknown>;
}

/** A workspace member `users.info` can describe. */
export interface FakeUser {
  id: string;
  name: string;
  real_name?: string;
  email?: string;
  tz?: string;
  is_admin?: boolean;
  is_bot?: boolean;
  deleted?: boolean;
}

/** Where a response URL came from, so its replace/delete/in_channel posts change the right message. */
export interface ResponseOrigin {
  channel?: string;
  /** The message the interaction happened on; `replace_original`/`delete_original` act on it. */
  messageTs?: string;
  threadTs?: string;
  /** The user who triggered the interaction; ephemeral responses are shown to them. */
  user?: string;
}

export class SlackState {
  readonly events = new EventEmitter();
  calls: RecordedCall[] = [];
  messages = new Map<string, StoredMessage[]>();
  ephemerals: StoredEphemeral[] = [];
  responses: RecordedResponse[] = [];
  views = new Map<string, StoredView>();
  /** Response URLs by id: when first handed out or used, where they came from, and each accepted use. */
  responseUrls = new Map<string, { issuedAt: number; origin?: ResponseOrigin; uses: number[] }>();
  /** Errors a test asked the next call of a method to fail with. */
  failures = new Map<string, string[]>();
  private lastTsMicros = 0;
  private seq = 0;

  constructor(readonly now: () => number) {}

  /** Message timestamps are 'SECONDS.MICROS', unique and increasing even within one millisecond. */
  nextTs(): string {
    const micros = Math.max(this.now() * 1000, this.lastTsMicros + 1);
    this.lastTsMicros = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }

  nextId(prefix: string): string {
    this.seq += 1;
    return `${prefix}${String(this.seq).padStart(8, '0')}`;
  }

  channelMessages(channel: string): StoredMessage[] {
    let list = this.messages.get(channel);
    if (list === undefined) {
      list = [];
      this.messages.set(channel, list);
    }
    return list;
  }

  findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.messages.get(channel)?.find((m) => m.ts === ts);
  }

  record(call: RecordedCall): void {
    this.calls.push(call);
    this.changed();
  }

  /** Wakes `waitFor` listeners; called after every change of state. */
  changed(): void {
    this.events.emit('change');
  }

  reset(): void {
    this.calls = [];
    this.messages.clear();
    this.ephemerals = [];
    this.responses = [];
    this.views.clear();
    this.responseUrls.clear();
    this.failures.clear();
    this.changed();
  }
}
