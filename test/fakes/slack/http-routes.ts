/**
 * The fake's HTTP surface: `/api/<method>` answered like the Web API (auth, rate limit, then the
 * method) and `/response/<id>` answered like a response URL. Every request is recorded, good or bad.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { METHODS } from './methods.js';
import type { ApiResult, MethodContext } from './methods.js';
import { decodeApiArgs, readBody, tokenOf } from './request-body.js';
import { answerResponsePost } from './response-url.js';
import type { SocketModeHub } from './socket-mode.js';
import type { TokenBuckets } from './token-bucket.js';

/** What the routes need from the fake that owns them. */
export interface RouteDeps {
  ctx: MethodContext;
  botToken: string;
  now: () => number;
  /** Current chat.postMessage limiter, read per request because tests can swap it. */
  buckets: () => TokenBuckets | undefined;
  /** Socket Mode: apps.connections.open is answered there, with the app-level token. */
  socket: SocketModeHub;
}

interface Answer {
  status: number;
  body: ApiResult;
  headers?: Record<string, string>;
}

function sendJson(res: ServerResponse, { status, body, headers }: { status: number; body: unknown; headers?: Record<string, string> }): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

const outcomeOf = (status: number, body: ApiResult) => ({
  ok: body.ok,
  ...(body.error !== undefined ? { error: body.error } : {}),
  ...(body.errors !== undefined ? { errors: body.errors } : {}),
  status,
});

function decideApi(deps: RouteDeps, req: IncomingMessage, method: string, args: Record<string, unknown>): Answer {
  if (method === 'apps.connections.open') {
    // A refusal a test asked for (token_revoked, account_inactive…) comes first, as Slack checks the token first.
    const refused = deps.ctx.state.failures.get(method)?.shift();
    return { status: 200, body: refused !== undefined ? { ok: false, error: refused } : deps.socket.open(req.headers.authorization, args) };
  }
  const token = tokenOf(req, args);
  if (token === undefined) return { status: 200, body: { ok: false, error: 'not_authed' } };
  if (token !== deps.botToken) return { status: 200, body: { ok: false, error: 'invalid_auth' } };
  const handler = METHODS[method];
  if (handler === undefined) return { status: 200, body: { ok: false, error: 'unknown_method' } };
  const buckets = deps.buckets();
  if (method === 'chat.postMessage' && buckets !== undefined) {
    const taken = buckets.take(String(args.channel ?? ''), deps.now());
    if (!taken.ok) {
      return { status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': String(taken.retryAfterSec) } };
    }
  }
  const injected = deps.ctx.state.failures.get(method)?.shift();
  if (injected !== undefined) return { status: 200, body: { ok: false, error: injected } };
  return { status: 200, body: handler(deps.ctx, args) };
}

function answerApi(deps: RouteDeps, req: IncomingMessage, method: string, raw: string, query: URLSearchParams): Answer {
  const decoded = decodeApiArgs(req.headers['content-type'], raw, query);
  const args = decoded.ok ? decoded.args : {};
  const answer: Answer = decoded.ok
    ? decideApi(deps, req, method, args)
    : { status: 200, body: { ok: false, error: decoded.error } };
  const { token: _token, ...recordedArgs } = args;
  deps.ctx.state.record({ method, args: recordedArgs, at: deps.now(), ...outcomeOf(answer.status, answer.body) });
  return answer;
}

function answerResponseUrl(deps: RouteDeps, id: string, raw: string): Answer {
  const { state, identity } = deps.ctx;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  const at = deps.now();
  const answer = answerResponsePost(state, identity, id, body, at);
  const recorded = (typeof body === 'object' && body !== null ? body : { raw }) as Record<string, unknown>;
  const outcome = outcomeOf(answer.status, answer.body);
  state.responses.push({ id, body: recorded, at, ...outcome });
  state.record({ method: 'response_url', args: { id, ...recorded }, at, ...outcome });
  return answer;
}

/**
 * A file download (`url_private_download`). Like Slack, a request without the bot token does not get
 * an error status: it gets the HTML of a sign-in page, which a careless client would read as the file.
 */
function answerDownload(deps: RouteDeps, req: IncomingMessage, res: ServerResponse, id: string): void {
  const content = deps.ctx.fileContents.get(id);
  const authorised = req.headers.authorization === `Bearer ${deps.botToken}`;
  deps.ctx.state.record({ method: 'file_download', args: { id, authorised }, at: deps.now(), ok: authorised && content !== undefined, status: 200 });
  if (!authorised) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><head><title>Slack</title></head><body>Sign in to your workspace</body></html>');
    return;
  }
  if (content === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(content.length) });
  res.end(content);
}

async function route(deps: RouteDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const raw = await readBody(req);
  const api = /^\/api\/([\w.]+)$/.exec(url.pathname)?.[1];
  if (api !== undefined) return sendJson(res, answerApi(deps, req, api, raw, url.searchParams));
  const fileId = /^\/files-pri\/([^/]+)\/[^/]+$/.exec(url.pathname)?.[1];
  if (fileId !== undefined && req.method === 'GET') return answerDownload(deps, req, res, decodeURIComponent(fileId));
  const responseId = /^\/response\/([^/]+)$/.exec(url.pathname)?.[1];
  if (responseId !== undefined && req.method === 'POST') {
    return sendJson(res, answerResponseUrl(deps, decodeURIComponent(responseId), raw));
  }
  sendJson(res, { status: 404, body: { ok: false, error: 'not_found' } });
}

export function createRequestListener(deps: RouteDeps): RequestListener {
  return (req, res) => {
    route(deps, req, res).catch((error: unknown) => sendJson(res, { status: 500, body: { ok: false, error: String(error) } }));
  };
}
