import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { downloadHop, readSharedFile } from '../../src/slack/files.js';

const token = 'xoxb-0000-files-test';

/** A loopback HTTP server that records who asked for what, with which Authorization header. */
async function recordingServer(answer: (req: IncomingMessage, res: ServerResponse, base: string) => void): Promise<{ base: string; seen: { path: string; authorization?: string }[]; close(): Promise<void> }> {
  const seen: { path: string; authorization?: string }[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    answer(req, res, base);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

describe('shared files are downloaded from Slack alone, and the bot token goes nowhere else', () => {
  let slack: Awaited<ReturnType<typeof recordingServer>>;
  let elsewhere: Awaited<ReturnType<typeof recordingServer>>;
  const text = (res: ServerResponse, body: string) => (res.writeHead(200, { 'content-type': 'text/plain' }), res.end(body));
  /** How many bytes the endless download had written when the reader went away. */
  const streamed = { bytes: 0, closed: false };
  // A file without a Content-Length that never ends: 64 KiB chunks, as fast as the reader takes them.
  const endless = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    res.on('close', () => (streamed.closed = true));
    const pump = () => {
      while (!res.destroyed && streamed.bytes < 512 * 2 ** 20) {
        streamed.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  };

  beforeAll(async () => {
    elsewhere = await recordingServer((_req, res) => text(res, 'thank you for the token'));
    // Stands for the configured SLACK_API_URL (a proxy of Slack, or the fake Slack of the tests).
    slack = await recordingServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${token}`) return text(res, '<html>Sign in</html>');
      if (req.url === '/files-pri/F1/build.log') return text(res, 'error: no token provided');
      if (req.url === '/files-pri/F2/build.log') return (res.writeHead(302, { location: '/files-tmb/F2/build.log' }), res.end());
      if (req.url === '/files-tmb/F2/build.log') return text(res, 'moved, same host');
      if (req.url === '/files-pri/F3/build.log') return (res.writeHead(302, { location: `${elsewhere.base}/steal` }), res.end());
      if (req.url === '/files-pri/F4/build.log') return (res.writeHead(302, { location: '/files-pri/F4/build.log' }), res.end());
      if (req.url === '/files-pri/F5/build.log') return endless(res);
      res.writeHead(404).end();
    });
  });
  beforeEach(() => {
    slack.seen.length = 0;
    elsewhere.seen.length = 0;
  });
  afterAll(async () => {
    await slack?.close();
    await elsewhere?.close();
  });

  const file = (id: string, url: string) => ({ id, name: 'build.log', mimetype: 'text/plain', filetype: 'text', size: 30, url_private_download: url });
  const read = (id: string, url: string) => readSharedFile(file(id, url), { botToken: token, maxBytes: 1024, apiUrl: `${slack.base}/api/` });

  it('refuses a file over the limit by its size, in bytes when the rounded words would read as the limit itself', async () => {
    const limit = 10 * 1024 * 1024;
    const over = { ...file('F8', `${slack.base}/files-pri/F8/build.log`), size: limit + 1 };
    expect(await readSharedFile(over, { botToken: token, maxBytes: limit, apiUrl: `${slack.base}/api/` })).toEqual({
      ok: false,
      name: 'build.log',
      reason: 'build.log is 10,485,761 bytes, over the 10,485,760; I read files up to 10.0 MB. Share the part around the error.',
    });
    expect(slack.seen.some((s) => s.path.includes('F8'))).toBe(false);
  });

  it('reads a file from the configured Slack address with the token', async () => {
    expect(await read('F1', `${slack.base}/files-pri/F1/build.log`)).toEqual({ ok: true, name: 'build.log', text: 'error: no token provided' });
  });

  it('refuses a file whose download address is another host, and sends that host nothing', async () => {
    const result = await read('F9', `${elsewhere.base}/files-pri/F9/build.log`);
    expect(result).toEqual({ ok: false, name: 'build.log', reason: `I did not download build.log: its address (${new URL(elsewhere.base).host}) is not one of Slack's file hosts.` });
    expect(elsewhere.seen).toEqual([]);
  });

  it('follows a redirect that stays on the same host, with the token', async () => {
    expect(await read('F2', `${slack.base}/files-pri/F2/build.log`)).toEqual({ ok: true, name: 'build.log', text: 'moved, same host' });
    expect(slack.seen.map((s) => [s.path, s.authorization])).toEqual([
      ['/files-pri/F2/build.log', `Bearer ${token}`],
      ['/files-tmb/F2/build.log', `Bearer ${token}`],
    ]);
  });

  it('does not follow a redirect to another host, and says why', async () => {
    const result = await read('F3', `${slack.base}/files-pri/F3/build.log`);
    expect(result).toEqual({ ok: false, name: 'build.log', reason: `I did not download build.log: the download was redirected to ${new URL(elsewhere.base).host}, which is not one of Slack's file hosts.` });
    expect(elsewhere.seen).toEqual([]);
  });

  it('stops reading a download without a Content-Length as soon as it passes the cap, and says why', async () => {
    const result = await read('F5', `${slack.base}/files-pri/F5/build.log`);
    expect(result).toEqual({ ok: false, name: 'build.log', reason: 'build.log is larger than 1 KB; I read files up to that size.' });
    // The server saw the reader go away long before the 512 MiB it would have sent.
    await expect.poll(() => streamed.closed).toBe(true);
    expect(streamed.bytes).toBeLessThan(16 * 2 ** 20);
  });

  it('gives up on a redirect loop with a clear reason', async () => {
    expect(await read('F4', `${slack.base}/files-pri/F4/build.log`)).toEqual({ ok: false, name: 'build.log', reason: 'Could not download build.log: Slack redirected the download too many times.' });
  });

  it("takes Slack's file hosts only over https, on the standard port, without credentials", () => {
    const allowed = (url: string) => 'url' in downloadHop(undefined, url, undefined);
    expect(allowed('https://files.slack.com/files-pri/T1-F1/build.log')).toBe(true);
    expect(allowed('https://files-edu.slack.com/files-pri/T1-F1/build.log')).toBe(true);
    expect(allowed('http://files.slack.com/files-pri/T1-F1/build.log')).toBe(false);
    expect(allowed('https://files.slack.com:8443/files-pri/T1-F1/build.log')).toBe(false);
    expect(allowed('https://user:pw@files.slack.com/files-pri/T1-F1/build.log')).toBe(false);
    expect(allowed('https://files.slack.com.example.net/files-pri/T1-F1/build.log')).toBe(false);
    expect(allowed('https://evilslack.com/files-pri/T1-F1/build.log')).toBe(false);
    expect(allowed('https://slack.com.example.net/x')).toBe(false);
    expect(allowed('not a url')).toBe(false);
  });

  it('keeps the token on the same host and drops it when a redirect moves to another Slack host', () => {
    const from = new URL('https://files.slack.com/files-pri/T1-F1/build.log');
    expect(downloadHop(from, '/files-tmb/T1-F1/build.log', undefined)).toEqual({ url: new URL('https://files.slack.com/files-tmb/T1-F1/build.log'), withToken: true });
    expect(downloadHop(from, 'https://files-origin.slack.com/T1-F1/build.log?sig=x', undefined)).toEqual({ url: new URL('https://files-origin.slack.com/T1-F1/build.log?sig=x'), withToken: false });
    expect(downloadHop(from, 'https://example.net/T1-F1', undefined)).toEqual({ refused: 'example.net' });
  });
});
