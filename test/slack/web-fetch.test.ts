import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { WebAPIRateLimitedError, WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAliveFetch } from '../../src/slack/web-fetch.js';

/**
 * The bot's fetch for Slack, against a real HTTP server on loopback: the Web API client and Bolt's
 * respond() read its answers as they read the built-in fetch's, over connections kept open.
 */

type Route = (req: IncomingMessage, body: string, res: ServerResponse) => void;

describe('the keep-alive fetch for Slack', () => {
  let server: Server;
  let base: string;
  const routes = new Map<string, Route>();
  const sockets = new Set<unknown>();
  const slack = keepAliveFetch();

  beforeAll(async () => {
    server = createServer((req, res) => {
      sockets.add(req.socket);
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => (routes.get(req.url ?? '') ?? ((_q, _b, r) => r.writeHead(404).end()))(req, body, res));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    if (typeof address !== 'object' || !address) throw new Error('no address');
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    slack.close();
    await new Promise((r) => server.close(r));
  });

  it('given the Web API client on it, when it posts messages, then Slack gets the form and the client the answer, over one connection', async () => {
    const seen: string[] = [];
    routes.set('/api/chat.postMessage', (req, body, res) => {
      seen.push(`${req.headers.authorization} ${new URLSearchParams(body).get('text')}`);
      res.writeHead(200, { 'content-type': 'application/json', 'x-oauth-scopes': 'chat:write, commands' }).end(JSON.stringify({ ok: true, ts: '1.000100', channel: 'C1' }));
    });
    sockets.clear();
    const client = new WebClient('xoxb-test', { slackApiUrl: `${base}/api/`, fetch: slack.fetch, retryConfig: { retries: 0 } });
    const first = await client.chat.postMessage({ channel: 'C1', text: 'héllo & <you>' });
    const second = await client.chat.postMessage({ channel: 'C1', text: 'again' });
    expect(first.ts).toBe('1.000100');
    expect(first.response_metadata?.scopes).toEqual(['chat:write', 'commands']);
    expect(second.ok).toBe(true);
    expect(seen).toEqual(['Bearer xoxb-test héllo & <you>', 'Bearer xoxb-test again']);
    expect(sockets.size).toBe(1);
  });

  it("given Slack's error answer or a 429, when the client calls, then it sees them as with fetch", async () => {
    routes.set('/api/chat.update', (_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'message_not_found' })));
    routes.set('/api/views.open', (_req, _body, res) => res.writeHead(429, { 'retry-after': '7' }).end());
    const client = new WebClient('xoxb-test', { slackApiUrl: `${base}/api/`, fetch: slack.fetch, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });
    await expect(client.chat.update({ channel: 'C1', ts: '1.0', text: 'x' })).rejects.toMatchObject({ data: { error: 'message_not_found' } });
    const limited = await client.views.open({ trigger_id: 't', view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] } }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(WebAPIRateLimitedError);
    expect((limited as WebAPIRateLimitedError).retryAfter).toBe(7);
  });

  it('given a response_url, when a message is posted as JSON, then the answer says whether Slack took it', async () => {
    let got: unknown;
    routes.set('/response/1', (_req, body, res) => {
      got = JSON.parse(body);
      res.writeHead(200).end('ok');
    });
    routes.set('/response/gone', (_req, _body, res) => res.writeHead(404, 'Not Found').end('expired_url'));
    const ok = await slack.fetch(`${base}/response/1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'done' }) });
    expect(ok.ok).toBe(true);
    expect(await ok.text()).toBe('ok');
    expect(got).toEqual({ text: 'done' });
    const gone = await slack.fetch(`${base}/response/gone`, { method: 'POST', body: '{}' });
    expect([gone.ok, gone.status, gone.statusText, await gone.text()]).toEqual([false, 404, 'Not Found', 'expired_url']);
  });

  it('given a redirect while redirects are an error, then the call fails as fetch fails', async () => {
    routes.set('/api/moved', (_req, _body, res) => res.writeHead(302, { location: '/elsewhere' }).end());
    await expect(slack.fetch(`${base}/api/moved`, { method: 'POST', body: 'a=1', redirect: 'error' })).rejects.toThrow(/redirect 302/);
  });

  it('given Slack that does not answer in time, when the signal aborts, then the call fails and does not hang', async () => {
    routes.set('/api/slow', () => undefined);
    const started = Date.now();
    await expect(slack.fetch(`${base}/api/slow`, { method: 'POST', body: 'a=1', signal: AbortSignal.timeout(100) })).rejects.toThrow();
    // Aborted at 0.1 s; the bound only tells an abort from a hang.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('given a body it does not send itself (a form with a file), then the built-in fetch sends it', async () => {
    const handed: string[] = [];
    const { fetch, close } = keepAliveFetch(async (url) => {
      handed.push(String(url));
      return { ok: true, status: 200, statusText: 'OK', url: String(url), headers: { get: () => null, entries: () => [] }, text: async () => '', json: async () => ({}), arrayBuffer: async () => new ArrayBuffer(0) };
    });
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    await fetch(`${base}/api/files.upload`, { method: 'POST', body: form });
    close();
    expect(handed).toEqual([`${base}/api/files.upload`]);
  });
});
