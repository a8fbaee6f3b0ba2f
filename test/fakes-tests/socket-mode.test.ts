/**
 * The fake's Socket Mode, driven by the client the product uses (Bolt's SocketModeReceiver and its
 * @slack/socket-mode client) and by hand where the protocol's edges matter: who may open a
 * connection, single-use tickets, hello, envelopes and their acknowledgements, pings.
 */
import { request } from 'node:http';
import { SocketModeReceiver, webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlackApi, type FakeSlackApi } from '../fakes/slack-api.js';

/** Status of a WebSocket upgrade request to `url` (101 when the server switched protocols). */
function upgradeStatus(url: string): Promise<number> {
  const u = new URL(url.replace(/^ws/, 'http'));
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('fake Slack: Socket Mode', () => {
  let fake: FakeSlackApi;
  beforeAll(async () => {
    fake = await startFakeSlackApi();
  });
  afterAll(() => fake.close());

  const open = (token: string, asHeader = true) =>
    new webApi.WebClient(asHeader ? '' : token, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, ...(asHeader ? { headers: { Authorization: `Bearer ${token}` } } : {}) }).apps.connections.open({});

  it('apps.connections.open takes only the app-level token, in the Authorization header', async () => {
    await expect(open(fake.botToken)).rejects.toMatchObject({ data: { ok: false, error: 'not_allowed_token_type' } });
    await expect(open('xapp-1-WRONG')).rejects.toMatchObject({ data: { ok: false, error: 'invalid_auth' } });
    const ok = await open(fake.appToken);
    expect(ok.url).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/link/\\?ticket=[0-9a-f-]{36}&app_id=${fake.identity.appId}$`));
  });

  it('a ticket opens one connection; a used or unknown ticket is refused', async () => {
    const { url } = await open(fake.appToken);
    expect(await upgradeStatus(url!)).toBe(101);
    expect(await upgradeStatus(url!)).toBe(401);
    expect(await upgradeStatus(url!.replace(/ticket=[^&]+/, 'ticket=made-up'))).toBe(401);
  });

  it('the real client connects (hello), gets envelopes, acknowledges them with payloads, and answers pings', async () => {
    const receiver = new SocketModeReceiver({ appToken: fake.appToken, installerOptions: { clientOptions: { slackApiUrl: fake.apiUrl } } });
    const client = receiver.client;
    const hello = new Promise<unknown>((resolve) => client.once('connected', resolve));
    client.on('slash_commands', ({ ack, body }: { ack: (p?: unknown) => Promise<void>; body: { text: string } }) => void ack({ text: `you said ${body.text}` }));
    client.on('interactive', ({ ack }: { ack: () => Promise<void> }) => void ack());
    await client.start();
    await hello;
    const hub = fake.socketMode;
    const id = hub.openConnections().at(-1)!;

    const command = hub.deliver('slash_commands', { command: '/platform', text: 'help' });
    const click = hub.deliver('interactive', { type: 'block_actions' });
    expect(command).toMatchObject({ accepts_response_payload: true, retry_attempt: 0, retry_reason: '', connection: id });
    const [a, b] = await Promise.all([hub.acknowledged(command.envelope_id), hub.acknowledged(click.envelope_id)]);
    expect(a.payload).toEqual({ text: 'you said help' });
    // Acknowledged without a payload: the client sends `payload: {}`, which says nothing.
    expect(b.payload).toBeUndefined();
    expect(hub.stray).toEqual([]);

    // The client pings every clientPingTimeout / 3 (5 s / 3) and drops a connection after more than
    // 3 pings without a pong: past 5 pings, the same connection is still open, so pongs came back.
    const opened = hub.connections.length;
    await fake.waitFor(() => (hub.connections.find((c) => c.id === id)!.pings >= 5 ? true : undefined), { timeoutMs: 15_000, what: 'five pings from the client' });
    expect(hub.openConnections()).toContain(id);
    expect(hub.connections).toHaveLength(opened);
    await client.disconnect();
    await fake.waitFor(() => hub.connections.find((c) => c.id === id)!.ended, { what: 'the connection to end' });
    expect(hub.connections.find((c) => c.id === id)!.ended).toBe('closed');
  });
});
