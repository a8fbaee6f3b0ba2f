/**
 * Requests exactly as Slack sends them to an app's HTTP endpoint: the real payload fields, the real
 * encodings, and a valid (or deliberately forged) v0 signature. Tests drive the app only through these.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { FAKE_WORKSPACE } from './slack-workspace.js';

const FORM = 'application/x-www-form-urlencoded';

/** `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{raw body}`, Slack's request signature. */
export function sign(secret: string, timestamp: number, rawBody: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/** A trigger_id in Slack's shape; each interaction gets a fresh one. */
export function newTriggerId(): string {
  return `${Date.now()}.${FAKE_WORKSPACE.teamId.slice(1)}.${randomBytes(16).toString('hex')}`;
}

const actionTs = (): string => (Date.now() / 1000).toFixed(6);

/** Who did it, as payloads describe users; a bare id gets a name derived from it. */
export type UserRef = string | { id: string; username?: string; name?: string };
/** Where it happened; a bare id gets a channel name derived from it. */
export type ChannelRef = string | { id: string; name?: string };

const userOf = (ref: UserRef, teamId: string = FAKE_WORKSPACE.teamId) => {
  const { id, username, name } = typeof ref === 'string' ? { id: ref, username: undefined, name: undefined } : ref;
  const handle = username ?? name ?? id.toLowerCase();
  return { id, username: handle, name: name ?? handle, team_id: teamId };
};
const channelOf = (ref: ChannelRef) =>
  typeof ref === 'string' ? { id: ref, name: ref.toLowerCase() } : { id: ref.id, name: ref.name ?? ref.id.toLowerCase() };
const team = (id: string = FAKE_WORKSPACE.teamId) => ({ id, domain: id === FAKE_WORKSPACE.teamId ? FAKE_WORKSPACE.teamDomain : id.toLowerCase() });

/** What a slash command invocation needs; the rest of Slack's fields get workspace defaults. */
export interface SlashCommandInput {
  command?: string;
  text: string;
  user_id: string;
  user_name?: string;
  channel_id: string;
  channel_name?: string;
  team_id?: string;
  response_url: string;
  trigger_id?: string;
}

/** A slash command body, form-encoded with Slack's fields in Slack's order. */
export function slashCommandBody(input: SlashCommandInput): string {
  return new URLSearchParams(slashCommandPayload(input)).toString();
}

/** The fields of a slash command, as Bolt hands them to a command listener in `command` (and `body`). */
export function slashCommandPayload(input: SlashCommandInput): Record<string, string> {
  return {
    token: FAKE_WORKSPACE.verificationToken,
    team_id: input.team_id ?? FAKE_WORKSPACE.teamId,
    team_domain: FAKE_WORKSPACE.teamDomain,
    channel_id: input.channel_id,
    channel_name: input.channel_name ?? input.channel_id.toLowerCase(),
    user_id: input.user_id,
    user_name: input.user_name ?? input.user_id.toLowerCase(),
    command: input.command ?? '/platform',
    text: input.text,
    api_app_id: FAKE_WORKSPACE.appId,
    is_enterprise_install: 'false',
    response_url: input.response_url,
    trigger_id: input.trigger_id ?? newTriggerId(),
  };
}

/** Interaction payloads travel as one form field, `payload`, holding JSON. */
const payloadBody = (payload: unknown): string => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

/** What a button click needs; the message defaults to a bot message with the given blocks. */
export interface BlockActionInput {
  user: UserRef;
  channel: ChannelRef;
  message_ts: string;
  thread_ts?: string;
  action_id: string;
  value: string;
  block_id: string;
  response_url: string;
  trigger_id?: string;
  /** Text of the clicked button. */
  button_text?: string;
  /** The message clicked on, as Slack echoes it back (text, blocks, …). */
  message?: Record<string, unknown>;
  container?: Record<string, unknown>;
  /** The workspace the click came from; default the fake workspace. */
  team_id?: string;
}

/** A `block_actions` interaction for a button click on a (non-ephemeral) message, form-encoded as Slack posts it. */
export function blockActionsBody(input: BlockActionInput): string {
  return payloadBody(blockActionsPayload(input));
}

/** The `block_actions` payload itself, as Bolt hands it to an action listener in `body`. */
export function blockActionsPayload(input: BlockActionInput) {
  const channel = channelOf(input.channel);
  const thread = input.thread_ts !== undefined ? { thread_ts: input.thread_ts } : {};
  return {
    type: 'block_actions',
    user: userOf(input.user, input.team_id),
    api_app_id: FAKE_WORKSPACE.appId,
    token: FAKE_WORKSPACE.verificationToken,
    container: input.container ?? {
      type: 'message',
      message_ts: input.message_ts,
      channel_id: channel.id,
      is_ephemeral: false,
      ...thread,
    },
    trigger_id: input.trigger_id ?? newTriggerId(),
    team: team(input.team_id),
    enterprise: null,
    is_enterprise_install: false,
    channel,
    message: {
      type: 'message',
      user: FAKE_WORKSPACE.botUserId,
      bot_id: FAKE_WORKSPACE.botId,
      app_id: FAKE_WORKSPACE.appId,
      team: FAKE_WORKSPACE.teamId,
      text: '',
      blocks: [],
      ...input.message,
      ts: input.message_ts,
      ...thread,
    },
    state: { values: {} },
    response_url: input.response_url,
    actions: [
      {
        action_id: input.action_id,
        block_id: input.block_id,
        text: { type: 'plain_text', text: input.button_text ?? input.action_id, emoji: true },
        value: input.value,
        type: 'button',
        action_ts: actionTs(),
      },
    ],
  };
}

/** What a message shortcut needs. */
export interface MessageShortcutInput {
  callback_id: string;
  user: UserRef;
  channel: ChannelRef;
  /** The message the shortcut was used on. */
  message: { ts: string; text: string; user?: string; thread_ts?: string } & Record<string, unknown>;
  response_url: string;
  trigger_id?: string;
}

/** A `message_action` interaction (message shortcut). */
export function messageShortcutBody(input: MessageShortcutInput): string {
  const user = userOf(input.user);
  return payloadBody({
    type: 'message_action',
    token: FAKE_WORKSPACE.verificationToken,
    action_ts: actionTs(),
    team: team(),
    user: { id: user.id, name: user.name, username: user.username, team_id: user.team_id },
    channel: channelOf(input.channel),
    is_enterprise_install: false,
    enterprise: null,
    callback_id: input.callback_id,
    trigger_id: input.trigger_id ?? newTriggerId(),
    response_url: input.response_url,
    message_ts: input.message.ts,
    message: { type: 'message', user: user.id, ...input.message },
  });
}

/** An Events API `event_callback` envelope around `event`, JSON as Slack sends it. */
export function eventCallbackBody(event: Record<string, unknown>, eventId = `Ev${randomBytes(5).toString('hex').toUpperCase()}`): string {
  return JSON.stringify({
    token: FAKE_WORKSPACE.verificationToken,
    team_id: FAKE_WORKSPACE.teamId,
    api_app_id: FAKE_WORKSPACE.appId,
    event,
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: FAKE_WORKSPACE.teamId,
        user_id: FAKE_WORKSPACE.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  });
}

/** How to send a request with `postSigned`. */
export interface PostSignedOptions {
  secret: string;
  /** Default form-encoded; use `application/json` for events. */
  contentType?: string;
  /** Seconds since the epoch; default now. Set it in the past to test replay protection. */
  timestamp?: number;
  /** Sent instead of the correct signature, to test forgery. */
  signature?: string;
  headers?: Record<string, string>;
}

/** What the app answered. `json` is set when the body parses as JSON. */
export interface SignedResponse {
  status: number;
  text: string;
  json?: unknown;
}

/** POSTs `body` to `url` with Slack's signature headers. */
export async function postSigned(url: string, body: string, options: PostSignedOptions): Promise<SignedResponse> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? FORM,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': options.signature ?? sign(options.secret, timestamp, body),
      ...options.headers,
    },
    body,
  });
  const text = await response.text();
  try {
    return { status: response.status, text, json: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, text };
  }
}
