import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { HTTPModuleFunctions, isValidSlackRequest, type BufferedIncomingMessage, type HTTPReceiver } from '@slack/bolt';
import type { Logger } from 'pino';

/**
 * How far a request's timestamp may be from this server's clock, either way. Slack's own rule for
 * stale requests is five minutes; Bolt enforces it only for the past.
 */
export const maxClockSkewSeconds = 300;

/** Where Slack posts commands, interactions and events (Bolt's default endpoint). */
const eventsPath = '/slack/events';

/** Why a request is turned away before Bolt sees it, and with which status. */
type Refusal = { status: 400 | 401 | 413; reason: string };

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

/**
 * Checks one request to the events endpoint before Bolt's receiver handles it: a timestamp too far
 * in the future (or past) is refused with 401; a correctly signed body that is not a JSON object
 * (`null`, `payload=null`, a number) with 400, where Bolt would fail on it outside any handler.
 * Everything else, forgeries included, goes on to Bolt, which verifies and parses it as always.
 */
async function screen(req: IncomingMessage, signingSecret: string, nowMs: number): Promise<Refusal | undefined> {
  let buffered: BufferedIncomingMessage;
  try {
    // Bolt reads the body it finds buffered here instead of reading the stream again.
    buffered = await HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit);
  } catch (err) {
    const tooLarge = HTTPModuleFunctions.isRawBodyError(err) && (err as { statusCode: number }).statusCode === 413;
    return tooLarge ? { status: 413, reason: 'body larger than the limit' } : { status: 400, reason: `body could not be read (${(err as Error).message})` };
  }
  const skew = skewOf(header(req, 'x-slack-request-timestamp'), nowMs);
  if (skew) return { status: 401, reason: skew };
  let body: unknown;
  try {
    body = HTTPModuleFunctions.parseHTTPRequestBody(buffered);
  } catch {
    return undefined; // Bolt answers a malformed body with 400 once it has checked the signature.
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return undefined;
  const signed = isValidSlackRequest({
    signingSecret,
    body: buffered.rawBody.toString(),
    headers: { 'x-slack-signature': header(req, 'x-slack-signature') ?? '', 'x-slack-request-timestamp': Number(header(req, 'x-slack-request-timestamp')) },
  });
  return signed ? { status: 400, reason: `a signed body that is not an object (${kindOf(body)})` } : undefined;
}

/**
 * Puts `screen` in front of the receiver's request listener. Bolt's HTTPReceiver still does all the
 * real work (verification, parsing, acknowledgement, routing); requests elsewhere pass untouched.
 */
export function gateRequests(receiver: HTTPReceiver, signingSecret: string, logger: Logger, now: () => number = Date.now): void {
  const inner: RequestListener = receiver.requestListener;
  const log = logger.child({ component: 'request-gate' });
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
    screen(req, signingSecret, now()).then(
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
