import { LogLevel, webApi } from '@slack/bolt';
import { UserFacingError } from '../errors.js';
import { networkCode } from '../net-errors.js';

/** Slack refused a token or could not be reached; the message says which. Never contains the token. */
export class SlackStartError extends UserFacingError {
  constructor(message: string) {
    super('slack-start', message);
    this.name = 'SlackStartError';
  }
}

/** Where each token comes from in the app's settings, and what the person does about a refusal. */
const appTokenPage = 'the app\'s "Basic Information" page → App-Level Tokens';
const newAppToken = `generate one on ${appTokenPage} with the scope connections:write and put it in SLACK_APP_TOKEN`;

/**
 * What to do about each refusal of the app-level token by apps.connections.open; the others get the
 * general advice. Slack's socket client retries some of these (`not_allowed_token_type`,
 * `token_revoked`) forever, so they must be caught before it starts.
 */
const appTokenFixes: Record<string, string> = {
  not_authed: `no token reached Slack: ${newAppToken}.`,
  invalid_auth: `it is not a valid app-level token (a typo, or a token of another app): copy the xapp-… token of ${appTokenPage}, or ${newAppToken}.`,
  not_allowed_token_type: `Socket Mode needs an app-level token (xapp-…), not a bot or user token: ${newAppToken}.`,
  token_revoked: `the token was revoked: ${newAppToken}.`,
  account_inactive: `its app or workspace is no longer active (the app deleted, or the workspace deactivated): check the app at https://api.slack.com/apps, then ${newAppToken}.`,
  missing_scope: `the token lacks the scope connections:write: ${newAppToken}.`,
};

/** What to tell about Slack's refusal `error` of the app-level token (`when`: at start, or " while reconnecting"): which refusal, and what to do. */
export function appTokenRefused(error: string, when = ''): string {
  return `Slack refused SLACK_APP_TOKEN (${error})${when}: ${appTokenFixes[error] ?? `check it on ${appTokenPage} (an xapp-… token with the scope connections:write).`}`;
}

/**
 * Slack's answers to apps.connections.open that judge the token itself: asking again cannot succeed. The
 * socket client stops on some (not_authed, invalid_auth, account_inactive…) and retries the others
 * (token_revoked, not_allowed_token_type) forever.
 */
const appTokenRefusals = new Set([...Object.keys(appTokenFixes), 'user_removed_from_team', 'team_disabled']);

/**
 * A fetch for the socket client that tells `refused` when Slack refuses the app-level token while the bot
 * runs (the token revoked, its app deleted): the socket client asks apps.connections.open again whenever its
 * connection ends, and a refusal there would otherwise be retried forever or leave the bot silently
 * disconnected. The answer itself goes to the client unchanged.
 */
export function watchAppTokenRefusals(refused: (error: string) => void, fetch: typeof globalThis.fetch = globalThis.fetch): webApi.FetchFunction {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = typeof input === 'string' ? input : input.href;
    if (url.endsWith('/apps.connections.open')) {
      res
        .clone()
        .json()
        .then((answer: unknown) => {
          const body = answer as { ok?: unknown; error?: unknown };
          if (body.ok === false && typeof body.error === 'string' && appTokenRefusals.has(body.error)) refused(body.error);
        })
        .catch(() => undefined);
    }
    return res;
  };
}

/** The fields of @slack/web-api's errors that tell a refusal from a failure to reach Slack. */
interface WebApiFailure {
  code?: string;
  data?: { error?: string };
  /** A request error's own failure (fetch's, with the socket's code in its cause). */
  original?: unknown;
  /** An HTTP error's status. */
  statusCode?: number;
  message: string;
}

/** The Web API client's address when SLACK_API_URL is not set. */
const slackApiUrl = 'https://slack.com/api/';

/** A client for one start-up check: quick, one retry, and no log line of its own. */
function checkClient(token: string, apiUrl: string | undefined, options: { rejectRateLimitedCalls?: boolean } = {}): webApi.WebClient {
  return new webApi.WebClient(token, { ...(apiUrl ? { slackApiUrl: apiUrl } : {}), retryConfig: { retries: 1, minTimeout: 200, maxTimeout: 1000 }, timeout: 5000, logLevel: LogLevel.ERROR, ...options });
}

/** Why a call did not get Slack's answer, in a few words: the socket's code, a timeout, or the HTTP status. */
function failureReason(e: WebApiFailure): string {
  if (typeof e.statusCode === 'number') return `it answered HTTP ${e.statusCode}`;
  const code = networkCode(e.original);
  if (code) return code;
  if ((e.original as { name?: unknown } | undefined)?.name === 'TimeoutError') return 'no answer within 5 s';
  // fetch's own message is "fetch failed"; the reason is its cause's ("bad port", an invalid certificate…).
  let deepest: string | undefined;
  for (let c = e.original, depth = 0; c instanceof Error && depth < 5; c = c.cause, depth++) deepest = c.message;
  return deepest ?? e.message;
}

/**
 * The answer to a failure that is not Slack's refusal: Slack's Web API did not answer. It says what to
 * check, and that HTTPS_PROXY is not it: neither Node's fetch nor the bot's own connections use a
 * proxy from the environment, so only SLACK_API_URL can send the bot's calls through one.
 */
export function unreachable(err: unknown, apiUrl: string | undefined, what: string): SlackStartError {
  const reason = failureReason(err as WebApiFailure);
  const check = apiUrl
    ? 'check SLACK_API_URL (is a server up at that address?) and the network between it and this host; the bot connects to it directly (HTTPS_PROXY is not used).'
    : 'check this host\'s network (DNS, a firewall, outbound HTTPS to slack.com). The bot does not use an HTTPS proxy (HTTPS_PROXY is ignored): where only a proxy reaches Slack, set SLACK_API_URL to that proxy\'s address of the Web API.';
  return new SlackStartError(`Cannot reach Slack's Web API at ${apiUrl ?? slackApiUrl} to check the ${what} (${reason}): ${check}`);
}

/**
 * Checks the bot token with auth.test, quickly: a wrong token or an unreachable Slack stops start-up.
 * Returns the bot's ids, which Bolt needs for every request (and would otherwise ask Slack for).
 */
export async function verifySlackToken(token: string, apiUrl?: string): Promise<{ botId: string; botUserId: string }> {
  try {
    const res = await checkClient(token, apiUrl).auth.test();
    return { botId: res.bot_id ?? '', botUserId: res.user_id ?? '' };
  } catch (err) {
    const e = err as WebApiFailure;
    if (e.code === webApi.ErrorCode.PlatformError) {
      throw new SlackStartError(`Slack refused SLACK_BOT_TOKEN (${e.data?.error ?? 'error'}): check the token of the app's "OAuth & Permissions" page.`);
    }
    throw unreachable(e, apiUrl, 'bot token');
  }
}

/**
 * Checks the app-level token (Socket Mode) with apps.connections.open, as the socket client will call
 * it: a refused token stops start-up with one line, rather than the socket client's error log and
 * stack (or its endless retries). The address Slack hands out is not used; it expires unopened. So
 * Socket Mode starts with two calls of apps.connections.open, this one and the socket client's.
 */
export async function verifyAppToken(token: string, apiUrl?: string): Promise<void> {
  try {
    await checkClient(token, apiUrl, { rejectRateLimitedCalls: true }).apps.connections.open({});
  } catch (err) {
    const e = err as WebApiFailure;
    // Slack answered without judging the token: the socket client waits out the limit itself.
    if (e.code === webApi.ErrorCode.RateLimitedError) return;
    if (e.code === webApi.ErrorCode.PlatformError) {
      throw new SlackStartError(appTokenRefused(e.data?.error ?? 'error'));
    }
    throw unreachable(e, apiUrl, 'app-level token');
  }
}
