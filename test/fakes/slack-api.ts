/**
 * A fake Slack Web API on loopback that the real @slack/web-api client (and so Bolt) can talk to with
 * `clientOptions: { slackApiUrl: fake.apiUrl }`. It authenticates, enforces Slack's Block Kit limits,
 * rate-limits chat.postMessage per channel, serves response URLs, and remembers what users would see.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_WORKSPACE } from '../support/slack-workspace.js';
import { createRequestListener } from './slack/http-routes.js';
import type { FakeIdentity, MethodContext } from './slack/methods.js';
import { SocketModeHub } from './slack/socket-mode.js';
import { SlackState } from './slack/state.js';
import type {
  FakeUser,
  RecordedCall,
  RecordedResponse,
  ResponseOrigin,
  StoredEphemeral,
  StoredMessage,
  StoredView,
} from './slack/state.js';
import { TokenBuckets } from './slack/token-bucket.js';
import type { RateLimit } from './slack/token-bucket.js';
import { waitForState } from './slack/wait-for.js';
import type { WaitForOptions } from './slack/wait-for.js';

export { blocksText } from './slack/blocks-text.js';
export { LIMITS } from './slack/block-kit-limits.js';
export type { RateLimit } from './slack/token-bucket.js';
export type { WaitForOptions } from './slack/wait-for.js';
export type { FakeIdentity } from './slack/methods.js';
export type { Acknowledgement, DeliveredEnvelope, DeliverOptions, EnvelopeType, SocketConnection, SocketModeHub } from './slack/socket-mode.js';
export type {
  BlockJson,
  FakeUser,
  RecordedCall,
  RecordedResponse,
  ResponseOrigin,
  StoredEphemeral,
  StoredMessage,
  StoredView,
} from './slack/state.js';

/** How a test sets up the fake. Every field has a default matching FAKE_WORKSPACE. */
export interface FakeSlackApiOptions {
  /** The only token accepted; default FAKE_WORKSPACE.botToken. */
  botToken?: string;
  /** The app-level token apps.connections.open accepts (Socket Mode); default FAKE_WORKSPACE.appToken. */
  appToken?: string;
  identity?: Partial<FakeIdentity>;
  /** Members `users.info` knows, besides the bot itself. */
  users?: FakeUser[];
  /** Files `files.info` knows, by id. */
  files?: Record<string, Record<string, unknown>>;
  /** chat.postMessage limit per channel; default 10 at once then 1 per second; `false` disables it. */
  rateLimit?: RateLimit | false;
  /** Clock in milliseconds for timestamps, rate limits and response URL windows; default Date.now. */
  now?: () => number;
}

/** The running fake; see the module comment. */
export interface FakeSlackApi {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/api/` — give this to `slackApiUrl`. */
  readonly apiUrl: string;
  readonly botToken: string;
  readonly appToken: string;
  readonly identity: Readonly<FakeIdentity>;
  /** Socket Mode: connections, envelopes sent and acknowledgements received; refresh and drop. */
  readonly socketMode: SocketModeHub;
  /** A response URL served by the fake; `origin` ties it to the message and user of an interaction. */
  responseUrl(id: string, origin?: ResponseOrigin): string;
  calls(method?: string): RecordedCall[];
  /** Messages of a channel in posting order, thread replies included, as they are now. */
  messages(channel: string): StoredMessage[];
  /** The parent message `ts` and its replies. */
  thread(channel: string, ts: string): StoredMessage[];
  ephemerals(user?: string): StoredEphemeral[];
  responses(id?: string): RecordedResponse[];
  views(): StoredView[];
  addUser(user: FakeUser): void;
  /** A user group and its members (usergroups.users.list). */
  setUserGroup(id: string, users: string[]): void;
  /** A file users can share: `files.info` describes it and its `url_private_download` serves `content`. */
  addFile(file: { id: string; name: string; mimetype: string; filetype: string; content: string | Buffer }): Record<string, unknown>;
  setRateLimit(limit: RateLimit | false): void;
  /** Makes the next call of `method` answer `{ok:false,error}` (queued; one per call). */
  failNext(method: string, error: string): void;
  /** Resolves with the first truthy value of `probe`, re-checked after every request the fake handles. */
  waitFor<T>(probe: (fake: FakeSlackApi) => T | undefined | null | false, options?: WaitForOptions): Promise<T>;
  /** Forgets all calls and state; keeps users, files, rate limit settings. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_RATE_LIMIT: RateLimit = { burst: 10, perSecond: 1 };

/** Starts a fake Slack on 127.0.0.1 on a free port. */
export async function startFakeSlackApi(options: FakeSlackApiOptions = {}): Promise<FakeSlackApi> {
  const now = options.now ?? Date.now;
  const botToken = options.botToken ?? FAKE_WORKSPACE.botToken;
  const identity: FakeIdentity = {
    teamId: FAKE_WORKSPACE.teamId,
    teamDomain: FAKE_WORKSPACE.teamDomain,
    teamName: FAKE_WORKSPACE.teamName,
    appId: FAKE_WORKSPACE.appId,
    botUserId: FAKE_WORKSPACE.botUserId,
    botId: FAKE_WORKSPACE.botId,
    botName: FAKE_WORKSPACE.botName,
    ...options.identity,
  };
  const state = new SlackState(now);
  const users = new Map<string, FakeUser>();
  for (const user of [{ id: identity.botUserId, name: identity.botName, is_bot: true }, ...(options.users ?? [])]) {
    users.set(user.id, user);
  }
  const ctx: MethodContext = { state, identity, users, files: new Map(Object.entries(options.files ?? {})), fileContents: new Map(), userGroups: new Map() };
  const makeBuckets = (limit: RateLimit | false | undefined): TokenBuckets | undefined =>
    limit === false ? undefined : new TokenBuckets(limit ?? DEFAULT_RATE_LIMIT);
  let rateLimit = options.rateLimit;
  let buckets = makeBuckets(rateLimit);

  const appToken = options.appToken ?? FAKE_WORKSPACE.appToken;
  let base = '';
  const socketMode = new SocketModeHub({ appToken, botToken, appId: identity.appId, baseUrl: () => base, changed: () => state.events.emit('change') });
  const server: Server = createServer(createRequestListener({ ctx, botToken, now, buckets: () => buckets, socket: socketMode }));
  server.on('upgrade', (req, socket) => socketMode.upgrade(req, socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeSlackApi = {
    url: base,
    apiUrl: `${base}/api/`,
    botToken,
    appToken,
    identity,
    socketMode,
    responseUrl(id, origin) {
      const entry = state.responseUrls.get(id);
      if (entry === undefined) state.responseUrls.set(id, { issuedAt: now(), uses: [], ...(origin ? { origin } : {}) });
      else if (origin !== undefined) entry.origin = origin;
      return `${base}/response/${encodeURIComponent(id)}`;
    },
    calls: (method) => state.calls.filter((c) => method === undefined || c.method === method),
    messages: (channel) => [...(state.messages.get(channel) ?? [])],
    thread: (channel, ts) => (state.messages.get(channel) ?? []).filter((m) => m.ts === ts || m.thread_ts === ts),
    ephemerals: (user) => state.ephemerals.filter((e) => user === undefined || e.user === user),
    responses: (id) => state.responses.filter((r) => id === undefined || r.id === id),
    views: () => [...state.views.values()],
    addUser: (user) => void users.set(user.id, user),
    setUserGroup: (id, users) => void ctx.userGroups.set(id, [...users]),
    addFile({ id, name, mimetype, filetype, content }) {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const file = {
        id,
        name,
        title: name,
        mimetype,
        filetype,
        size: bytes.length,
        mode: filetype === 'text' ? 'snippet' : 'hosted',
        url_private: `${base}/files-pri/${encodeURIComponent(id)}/${encodeURIComponent(name)}`,
        url_private_download: `${base}/files-pri/${encodeURIComponent(id)}/${encodeURIComponent(name)}`,
      };
      ctx.files.set(id, file);
      ctx.fileContents.set(id, bytes);
      return file;
    },
    setRateLimit(limit) {
      rateLimit = limit;
      buckets = makeBuckets(limit);
    },
    failNext(method, error) {
      state.failures.set(method, [...(state.failures.get(method) ?? []), error]);
    },
    waitFor: (probe, waitOptions) => waitForState(state, () => probe(fake), waitOptions),
    reset() {
      state.reset();
      buckets = makeBuckets(rateLimit);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // fetch keeps connections alive; without this close() would wait for them to idle out.
        server.closeAllConnections();
        // Upgraded (Socket Mode) connections are no longer the server's: they are dropped here.
        socketMode.close();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}
