import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { HTTPModuleFunctions, isValidSlackRequest, type BufferedIncomingMessage, type HTTPReceiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { BodiesInFlight, maxUnverifiedBytes } from './bodies-in-flight.js';

/**
 * How far a request's timestamp may be from this server's clock, either way. Slack's own rule for
 * stale requests is five minutes; Bolt enforces it only for the past.
 */
export const maxClockSkewSeconds = 300;

/** Where Slack posts commands, interactions and events (Bolt's default endpoint). */
const eventsPath = '/slack/events';

/** Why a request is turned away before Bolt sees it, and with which status. */
type Refusal = { status: 400 | 401 | 408 | 413 | 503; reason: string };

/**
 * Slack sends a body at once and stops waiting for the answer after 3 s. A body still arriving then is
 * answered by no one, and until the server's request timeout (5 minutes) its bytes, up to 4 MB before any
 * signature is checked, would be held: a few dozen stalled connections would outgrow the pod's memory.
 */
const bodyDeadlineMs = 3_000;

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

/** A timestamp further than the allowed skew from now, in words; undefined when it is acceptable or absent. */
export function skewOf(timestamp: string | undefined, nowMs: number): string | undefined {
  if (timestamp === undefined) return undefined;
  // Slack sends whole seconds as plain digits. Anything else is refused here: Bolt reads the header
  // with Number(), so `Infinity` would never go stale and `0<ts>` or `<ts>.0` would be the same
  // signed request under another spelling.
  if (!/^[1-9][0-9]{0,14}$/.test(timestamp)) return 'timestamp header is not a time in seconds';
  const seconds = Number(timestamp);
  const delta = Math.round(seconds - nowMs / 1000);
  if (Math.abs(delta) <= maxClockSkewSeconds) return undefined;
  return `timestamp ${Math.abs(delta)} s ${delta > 0 ? 'ahead of' : 'behind'} this server's clock (at most ${maxClockSkewSeconds} s either way)`;
}

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of a slash command that listeners read as text: who, where, what. */
const commandFields = ['command', 'text', 'user_id', 'channel_id', 'team_id'] as const;

/** Interactions whose payload names the person who acted; Bolt reads `user.id` from each. */
const interactions = new Set(['block_actions', 'block_suggestion', 'interactive_message', 'message_action', 'shortcut', 'view_submission', 'view_closed']);

/**
 * Body types Bolt hands to a kind of listener by their `type` alone (its getTypeAndConversation), or
 * answers itself (url_verification). Bodies with an event, a command, an options `name` or `actions`
 * are routed whatever their type.
 */
const routedTypes = new Set(['block_suggestion', 'dialog_submission', 'shortcut', 'message_action', 'view_submission', 'view_closed', 'url_verification']);

/**
 * Types Slack does send that no listener kind takes: the app answers them itself (unanswered.ts), so
 * Slack does not count a failure (app_rate_limited says Slack is holding back the app's events).
 */
const unroutedSlackTypes = new Set(['app_rate_limited', 'dialog_cancellation']);

/** Whether a body is of a kind Slack sends: Bolt routes it, answers it, or the app answers it unrouted. */
function isSlackKind(body: Record<string, unknown>): boolean {
  if (body.event !== undefined || body.command !== undefined || body.name !== undefined || body.actions !== undefined || body.ssl_check !== undefined) return true;
  return typeof body.type === 'string' && (routedTypes.has(body.type) || unroutedSlackTypes.has(body.type));
}

/**
 * Where Slack lets an app answer later: https on hooks.slack.com (the documented host of every
 * response_url), or the configured Web API address (a proxy, or the tests' fake Slack).
 */
export function isSlackResponseUrl(address: string, apiUrl: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:' && url.port === '' && url.hostname === 'hooks.slack.com') return true;
  if (!apiUrl) return false;
  try {
    return new URL(apiUrl).origin === url.origin;
  } catch {
    return false;
  }
}

/**
 * What is wrong (in words that follow "a signed body") with the shape of a parsed body that Bolt would fail on outside any listener (an
 * event_callback whose `event` is not an object: a 500; an interaction without its `user`: no
 * acknowledgement at all), that Bolt would leave unanswered for 3 s (no kind Slack sends), or that
 * would make the bot write where Slack never told it to (a response_url that is not Slack's).
 * Undefined when the body is fine.
 */
export function shapeProblem(body: unknown, apiUrl: string | undefined): string | undefined {
  if (!isObject(body)) return `that is not an object (${kindOf(body)})`;
  if (body.type === 'event_callback' && !isObject(body.event)) return `of an event callback whose event is ${kindOf(body.event)}`;
  // Bolt would find no kind of listener for it and leave it unanswered until its 3-second timeout.
  if (!isSlackKind(body)) return `of no kind Slack sends (${typeof body.type === 'string' ? `type ${JSON.stringify(body.type.slice(0, 40))}` : 'no type'})`;
  if (typeof body.type === 'string' && interactions.has(body.type) && !(isObject(body.user) && typeof body.user.id === 'string')) return `of ${body.type} without the user who acted`;
  // A form field sent twice parses as a list; listeners read the command's text and ids as strings.
  if (body.command !== undefined) {
    const field = commandFields.find((f) => body[f] !== undefined && typeof body[f] !== 'string');
    if (field) return `of a slash command whose ${field} is ${kindOf(body[field])}`;
  }
  // Bolt reads a modal's view (its app_installed_team_id) to authorize a submission or a closing: a 500 without one.
  if ((body.type === 'view_submission' || body.type === 'view_closed') && !isObject(body.view)) return `of ${body.type} without its view`;
  // Bolt reads the team of an event's first authorization when there is one: a 500 when it is null.
  const first = body.type === 'event_callback' && Array.isArray(body.authorizations) ? (body.authorizations[0] as unknown) : undefined;
  if (first !== undefined && !isObject(first)) return `of an event callback whose first authorization is ${kindOf(first)}`;
  if (body.type === 'block_actions' && body.actions !== undefined && !Array.isArray(body.actions)) return `of block_actions whose actions are ${kindOf(body.actions)}`;
  if (body.type === 'event_callback' && isObject(body.event) && body.event.text !== undefined && typeof body.event.text !== 'string') return `of an event whose text is ${kindOf(body.event.text)}`;
  // Slack always sends these; without them a listener fails after the acknowledgement and the person hears nothing.
  if (body.type === 'block_actions' && Array.isArray(body.actions) && body.actions.length > 0 && !isObject(body.container)) return 'of block_actions without the message or view its buttons are in';
  if (body.type === 'view_submission' && isObject(body.view) && !isObject(body.view.state)) return 'of view_submission whose view has no state';
  if (body.type === 'event_callback' && isObject(body.event) && body.event.files !== undefined && !Array.isArray(body.event.files)) return `of an event whose files are ${kindOf(body.event.files)}`;
  const urls = [body.response_url, ...(Array.isArray(body.response_urls) ? body.response_urls.map((r) => (isObject(r) ? r.response_url : r)) : [])];
  for (const u of urls) {
    if (u === undefined) continue;
    if (typeof u !== 'string' || !isSlackResponseUrl(u, apiUrl)) return "with a response_url that is not Slack's";
  }
  return undefined;
}

/**
 * Checks one request to the events endpoint before Bolt's receiver handles it: a timestamp too far
 * in the future (or past) is refused with 401; a correctly signed body of a shape Bolt would fail on
 * outside any handler (`null`, `payload=null`, an event that is not an object, an interaction
 * without its user, a modal's submission without its view, an event whose first authorization is not an
 * object, a command's text or ids or a message's text that are not text, actions that are not a list), of
 * no kind Slack sends (an unknown type, a form without its payload), or with a response_url off
 * Slack's hosts, with 400. A body still arriving after 3 s, or the largest of the bodies being read
 * when together they pass maxUnverifiedBytes, is closed before it is verified.
 * Everything else, forgeries included, goes on to Bolt, which verifies and parses it as always.
 */
async function screen(req: IncomingMessage, signingSecret: string, apiUrl: string | undefined, nowMs: number, bodies: BodiesInFlight): Promise<Refusal | undefined> {
  let buffered: BufferedIncomingMessage;
  let late = false;
  let crowded = false;
  // Destroying the request ends the read: what it had buffered is let go with it.
  const deadline = setTimeout(() => ((late = true), req.destroy()), bodyDeadlineMs);
  // Bolt reads the body it finds buffered here instead of reading the stream again.
  const reading = HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit);
  // Counted from now: the read above has attached its own listener, and no chunk arrives before the next tick.
  const untrack = bodies.track(req, () => ((crowded = true), req.destroy()));
  try {
    buffered = await reading;
  } catch (err) {
    if (late) return { status: 408, reason: `body not received within ${bodyDeadlineMs / 1000} s` };
    if (crowded) return { status: 503, reason: `unverified bodies in flight over ${maxUnverifiedBytes / 1024 / 1024} MiB: the largest is closed` };
    const tooLarge = HTTPModuleFunctions.isRawBodyError(err) && (err as { statusCode: number }).statusCode === 413;
    return tooLarge ? { status: 413, reason: 'body larger than the limit' } : { status: 400, reason: `body could not be read (${(err as Error).message})` };
  } finally {
    clearTimeout(deadline);
    untrack();
  }
  const skew = skewOf(header(req, 'x-slack-request-timestamp'), nowMs);
  if (skew) return { status: 401, reason: skew };
  let body: unknown;
  try {
    body = HTTPModuleFunctions.parseHTTPRequestBody(buffered);
  } catch {
    return undefined; // Bolt answers a malformed body with 400 once it has checked the signature.
  }
  const problem = shapeProblem(body, apiUrl);
  if (!problem) return undefined;
  // Only a signed body is answered here; a forgery goes on to Bolt, which refuses it as always.
  const signed = isValidSlackRequest({
    signingSecret,
    body: buffered.rawBody.toString(),
    headers: { 'x-slack-signature': header(req, 'x-slack-signature') ?? '', 'x-slack-request-timestamp': Number(header(req, 'x-slack-request-timestamp')) },
  });
  return signed ? { status: 400, reason: `a signed body ${problem}` } : undefined;
}

/**
 * Puts `screen` in front of the receiver's request listener. Bolt's HTTPReceiver still does all the
 * real work (verification, parsing, acknowledgement, routing); requests elsewhere pass untouched.
 */
export function gateRequests(receiver: HTTPReceiver, signingSecret: string, logger: Logger, apiUrl?: string, now: () => number = Date.now): void {
  const inner: RequestListener = receiver.requestListener;
  const log = logger.child({ component: 'request-gate' });
  const bodies = new BodiesInFlight();
  const pass = (req: IncomingMessage, res: ServerResponse) => {
    try {
      inner(req, res);
    } catch (err) {
      log.error({ err: (err as Error).message }, 'the receiver failed on a request');
      if (!res.headersSent) res.writeHead(500).end();
    }
  };
  receiver.requestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method !== 'POST' || path !== eventsPath) return pass(req, res);
    screen(req, signingSecret, apiUrl, now(), bodies).then(
      (refusal) => {
        if (!refusal) return pass(req, res);
        log.warn({ status: refusal.status, reason: refusal.reason, retryNum: header(req, 'x-slack-retry-num') }, 'request refused');
        res.writeHead(refusal.status).end();
      },
      (err: unknown) => {
        log.error({ err: (err as Error)?.message }, 'could not check a request');
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  };
}
