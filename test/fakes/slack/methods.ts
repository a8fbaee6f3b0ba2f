/**
 * The Web API methods the product uses, answered the way Slack answers them: HTTP 200 with
 * `{ok:true,…}` or `{ok:false,error}`. Rate limiting and authentication happen before these run.
 */
import { blockKitErrors, LIMITS, modalErrors } from './block-kit-limits.js';
import type { ApiArgs } from './request-body.js';
import type { BlockJson, FakeUser, SlackState, StoredMessage } from './state.js';

/** The body of a Web API answer. */
export type ApiResult = { ok: boolean; error?: string; errors?: string[] } & Record<string, unknown>;

/** Who the fake workspace and its bot are; `auth.test` reports these. */
export interface FakeIdentity {
  teamId: string;
  teamDomain: string;
  teamName: string;
  appId: string;
  botUserId: string;
  botId: string;
  botName: string;
}

/** Everything a method may read or change. */
export interface MethodContext {
  state: SlackState;
  identity: FakeIdentity;
  users: Map<string, FakeUser>;
  files: Map<string, Record<string, unknown>>;
  /** Bytes served at a file's url_private_download. */
  fileContents: Map<string, Buffer>;
  /** User groups and their members, for usergroups.users.list. */
  userGroups: Map<string, string[]>;
}

type Method = (ctx: MethodContext, args: ApiArgs) => ApiResult;

const str = (args: ApiArgs, key: string): string | undefined => {
  const value = args[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export const fail = (error: string, errors?: string[]): ApiResult =>
  errors === undefined
    ? { ok: false, error }
    : { ok: false, error, errors, response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) } };

/** Message text and blocks after Slack's checks: text past 40,000 characters is cut, not refused. */
export interface Content {
  text?: string;
  blocks?: BlockJson[];
}

/** Validated message content, or the error Slack would give for it. */
export function messageContent(args: ApiArgs): { content: Content } | { rejected: ApiResult } {
  const text = typeof args.text === 'string' ? args.text.slice(0, LIMITS.messageText) : undefined;
  if (args.blocks === undefined) return { content: { text } };
  const errors = blockKitErrors(args.blocks, LIMITS.blocksPerMessage);
  if (errors.length > 0) return { rejected: fail('invalid_blocks', errors) };
  return { content: { text, blocks: args.blocks as BlockJson[] } };
}

export const isEmpty = ({ text, blocks }: Content): boolean =>
  (text === undefined || text === '') && (blocks === undefined || blocks.length === 0);

function postMessage(ctx: MethodContext, args: ApiArgs): ApiResult {
  const channel = str(args, 'channel');
  if (channel === undefined) return fail('channel_not_found');
  const checked = messageContent(args);
  if ('rejected' in checked) return checked.rejected;
  const { text, blocks } = checked.content;
  if (isEmpty(checked.content) && args.attachments === undefined) return fail('no_text');
  const threadTs = str(args, 'thread_ts');
  const message: StoredMessage = {
    type: 'message',
    channel,
    ts: ctx.state.nextTs(),
    ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
    text: text ?? '',
    ...(blocks !== undefined ? { blocks } : {}),
    ...(args.attachments !== undefined ? { attachments: args.attachments as unknown[] } : {}),
    ...(args.metadata !== undefined ? { metadata: args.metadata } : {}),
    user: ctx.identity.botUserId,
    bot_id: ctx.identity.botId,
  };
  if (threadTs !== undefined) {
    const parent = ctx.state.findMessage(channel, threadTs);
    if (parent !== undefined) {
      parent.thread_ts = threadTs;
      parent.reply_count = (parent.reply_count ?? 0) + 1;
    }
  }
  ctx.state.channelMessages(channel).push(message);
  return { ok: true, channel, ts: message.ts, message: { ...message, app_id: ctx.identity.appId, team: ctx.identity.teamId } };
}

function update(ctx: MethodContext, args: ApiArgs): ApiResult {
  const channel = str(args, 'channel');
  const ts = str(args, 'ts');
  const message = channel !== undefined && ts !== undefined ? ctx.state.findMessage(channel, ts) : undefined;
  if (message === undefined) return fail('message_not_found');
  const checked = messageContent(args);
  if ('rejected' in checked) return checked.rejected;
  const { text, blocks } = checked.content;
  // Slack keeps what the update leaves out; an empty blocks array is how callers remove blocks.
  if (text !== undefined) message.text = text;
  if (blocks !== undefined) message.blocks = blocks;
  if (args.attachments !== undefined) message.attachments = args.attachments as unknown[];
  message.edited = { user: ctx.identity.botUserId, ts: ctx.state.nextTs() };
  return { ok: true, channel, ts, text: message.text, message: { ...message } };
}

function postEphemeral(ctx: MethodContext, args: ApiArgs): ApiResult {
  const channel = str(args, 'channel');
  const user = str(args, 'user');
  if (channel === undefined) return fail('channel_not_found');
  if (user === undefined) return fail('user_not_found');
  const checked = messageContent(args);
  if ('rejected' in checked) return checked.rejected;
  const { text, blocks } = checked.content;
  if (isEmpty(checked.content)) return fail('no_text');
  const ts = ctx.state.nextTs();
  const threadTs = str(args, 'thread_ts');
  ctx.state.ephemerals.push({
    channel,
    user,
    ts,
    ...(threadTs !== undefined ? { thread_ts: threadTs } : {}),
    text: text ?? '',
    ...(blocks !== undefined ? { blocks } : {}),
    source: 'chat.postEphemeral',
  });
  return { ok: true, message_ts: ts };
}

function getPermalink(ctx: MethodContext, args: ApiArgs): ApiResult {
  const channel = str(args, 'channel');
  const ts = str(args, 'message_ts');
  const message = channel !== undefined && ts !== undefined ? ctx.state.findMessage(channel, ts) : undefined;
  if (message === undefined || channel === undefined || ts === undefined) return fail('message_not_found');
  const reply = message.thread_ts !== undefined && message.thread_ts !== ts;
  const query = reply ? `?thread_ts=${message.thread_ts}&cid=${channel}` : '';
  const permalink = `https://${ctx.identity.teamDomain}.slack.com/archives/${channel}/p${ts.replace('.', '')}${query}`;
  return { ok: true, channel, permalink };
}

function replies(ctx: MethodContext, args: ApiArgs): ApiResult {
  const channel = str(args, 'channel');
  const ts = str(args, 'ts');
  const first = channel !== undefined && ts !== undefined ? ctx.state.findMessage(channel, ts) : undefined;
  if (channel === undefined || first === undefined) return fail('thread_not_found');
  const isParent = first.thread_ts === undefined || first.thread_ts === first.ts;
  const messages = isParent
    ? ctx.state.channelMessages(channel).filter((m) => m.ts === first.ts || m.thread_ts === first.ts)
    : [first];
  return { ok: true, messages: messages.map((m) => ({ ...m })), has_more: false };
}

function openView(ctx: MethodContext, args: ApiArgs): ApiResult {
  if (str(args, 'trigger_id') === undefined) return fail('invalid_arguments', ['missing required field: trigger_id']);
  const errors = modalErrors(args.view);
  if (errors.length > 0) return fail('invalid_arguments', errors);
  const id = ctx.state.nextId('V');
  const stored = { id, hash: ctx.state.nextId('h.'), view: { ...(args.view as Record<string, unknown>) } };
  ctx.state.views.set(id, stored);
  return { ok: true, view: { ...stored.view, id, hash: stored.hash, team_id: ctx.identity.teamId, state: { values: {} } } };
}

function updateView(ctx: MethodContext, args: ApiArgs): ApiResult {
  const viewId = str(args, 'view_id');
  const externalId = str(args, 'external_id');
  const stored = [...ctx.state.views.values()].find(
    (v) => v.id === viewId || (externalId !== undefined && v.view.external_id === externalId),
  );
  if (stored === undefined) return fail('not_found');
  const hash = str(args, 'hash');
  if (hash !== undefined && hash !== stored.hash) return fail('hash_conflict');
  const errors = modalErrors(args.view);
  if (errors.length > 0) return fail('invalid_arguments', errors);
  stored.view = { ...(args.view as Record<string, unknown>) };
  stored.hash = ctx.state.nextId('h.');
  return { ok: true, view: { ...stored.view, id: stored.id, hash: stored.hash, state: { values: {} } } };
}

function usersInfo(ctx: MethodContext, args: ApiArgs): ApiResult {
  const user = ctx.users.get(str(args, 'user') ?? '');
  if (user === undefined) return fail('user_not_found');
  const realName = user.real_name ?? user.name;
  return {
    ok: true,
    user: {
      ...user,
      team_id: ctx.identity.teamId,
      real_name: realName,
      deleted: user.deleted ?? false,
      is_bot: user.is_bot ?? false,
      is_admin: user.is_admin ?? false,
      tz: user.tz ?? 'Etc/UTC',
      profile: { real_name: realName, display_name: user.name, ...(user.email !== undefined ? { email: user.email } : {}) },
    },
  };
}

function filesInfo(ctx: MethodContext, args: ApiArgs): ApiResult {
  const file = ctx.files.get(str(args, 'file') ?? '');
  return file === undefined ? fail('file_not_found') : { ok: true, file };
}

function authTest(ctx: MethodContext): ApiResult {
  const { identity } = ctx;
  return {
    ok: true,
    url: `https://${identity.teamDomain}.slack.com/`,
    team: identity.teamName,
    user: identity.botName,
    team_id: identity.teamId,
    user_id: identity.botUserId,
    bot_id: identity.botId,
    is_enterprise_install: false,
  };
}

/** Methods by name; anything else is `unknown_method`, as on Slack. */
export const METHODS: Readonly<Record<string, Method>> = {
  'auth.test': authTest,
  'chat.postMessage': postMessage,
  'chat.update': update,
  'chat.postEphemeral': postEphemeral,
  'chat.getPermalink': getPermalink,
  'conversations.replies': replies,
  'views.open': openView,
  'views.push': openView,
  'views.update': updateView,
  'users.info': usersInfo,
  'files.info': filesInfo,
  'usergroups.users.list': (ctx, args) => {
    const users = ctx.userGroups.get(str(args, 'usergroup') ?? '');
    return users ? { ok: true, users } : fail('no_such_subteam');
  },
};
