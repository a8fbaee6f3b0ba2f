import { Writable } from 'node:stream';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnownSecrets } from '../../src/known-secrets.js';
import { createLogger } from '../../src/logger.js';
import { slackLibraryLogger, withoutPayload } from '../../src/slack/library-logger.js';
import { startFakeSlackApi, type FakeSlackApi } from '../fakes/slack-api.js';

describe("Slack libraries' debug lines keep their words and lose their payloads", () => {
  let fake: FakeSlackApi;
  beforeAll(async () => {
    fake = await startFakeSlackApi({ rateLimit: false });
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('logs the Web API client at debug without the body of a message it sent, even a secret nobody registered', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (c: Buffer, _e, cb) => (lines.push(...c.toString().split('\n').filter(Boolean)), cb()) });
    // An empty registry: only the adapter stands between the message and the log here.
    const logger = createLogger('debug', sink, new KnownSecrets());
    const client = new webApi.WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logger: slackLibraryLogger(logger) });
    const password = 'unregistered-9fQ2xZ';

    await client.chat.postMessage({ channel: 'C1', text: `🔑 Admin password: ${password}` });

    const msgs = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(msgs).toContain(`apiCall('chat.postMessage') start`);
    expect(msgs.some((m) => /^http request body: \[payload not logged: \d+ characters\]$/.test(m))).toBe(true);
    expect(msgs.some((m) => /^http request result: \[payload not logged: \d+ characters\]$/.test(m))).toBe(true);
    expect(lines.join('\n')).not.toContain(password);
  });

  it.each([
    // Socket Mode: every envelope received (a pasted message, verbatim) and every ack sent.
    ['Received a message on the WebSocket: {"envelope_id":"e1","payload":{"event":{"text":"password=hunter2"}}}', 'Received a message on the WebSocket: [payload not logged: 68 characters]'],
    ['Calling ack() - type: events_api, envelope_id: e1, data: {"text":"ok"}', 'Calling ack() - type: events_api, envelope_id: e1, data: [payload not logged: 13 characters]'],
    ['Sending a WebSocket message: {"envelope_id":"e1"}', 'Sending a WebSocket message: [payload not logged: 20 characters]'],
    // Bolt's HTTP acks: the body as plain text.
    ['ack() response sent (body: here is your answer)', 'ack() response sent (body: [payload not logged: 20 characters]'],
    ['http request body: [{"type":"section"}]', 'http request body: [payload not logged: 20 characters]'],
    // Lines without a payload stay as they are.
    ["apiCall('chat.postEphemeral') end", "apiCall('chat.postEphemeral') end"],
    ['http request url: http://127.0.0.1:9/api/chat.postEphemeral', 'http request url: http://127.0.0.1:9/api/chat.postEphemeral'],
  ])('%s', (line, expected) => {
    expect(withoutPayload(line)).toBe(expected);
  });
});
