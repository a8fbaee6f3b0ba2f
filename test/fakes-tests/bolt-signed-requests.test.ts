import { App } from '@slack/bolt';
import type {
  AllMiddlewareArgs,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
} from '@slack/bolt';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSlackApi } from '../fakes/slack-api.js';
import type { FakeSlackApi } from '../fakes/slack-api.js';
import {
  blockActionsBody,
  eventCallbackBody,
  messageShortcutBody,
  postSigned,
  sign,
  slashCommandBody,
} from '../support/slack-requests.js';
import { FAKE_WORKSPACE } from '../support/slack-workspace.js';
import { silentLogger } from './web-client.js';

const secret = FAKE_WORKSPACE.signingSecret;

describe('signed requests are accepted by a real Bolt app on its HTTPReceiver', () => {
  let fake: FakeSlackApi;
  let app: App;
  let eventsUrl: string;
  const commandsSeen: string[] = [];
  const seen: string[] = [];

  // Named listeners, as the product registers them; they respond through the fake's response URLs.
  async function platformCommand({ ack, command, respond }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> {
    commandsSeen.push(command.text);
    await ack(`Looking into: ${command.text}`);
    await respond({ response_type: 'in_channel', text: `Diagnosis for ${command.text}` });
  }
  async function approveClicked({ ack, action, respond }: SlackActionMiddlewareArgs & AllMiddlewareArgs): Promise<void> {
    await ack();
    const value = action.type === 'button' ? action.value : undefined;
    await respond({ replace_original: true, text: `Approved ${value ?? '?'}` });
  }

  async function diagnoseShortcut({ ack, shortcut }: SlackShortcutMiddlewareArgs & AllMiddlewareArgs): Promise<void> {
    await ack();
    seen.push(`shortcut ${shortcut.type === 'message_action' ? shortcut.message.text ?? '' : ''}`);
  }
  async function mentioned({ event }: SlackEventMiddlewareArgs<'app_mention'>): Promise<void> {
    seen.push(`mention ${event.text}`);
  }

  beforeAll(async () => {
    fake = await startFakeSlackApi();
    app = new App({
      signingSecret: secret,
      token: fake.botToken,
      clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
      logger: silentLogger,
    });
    app.command('/platform', platformCommand);
    app.action('approve', approveClicked);
    app.shortcut('diagnose-message', diagnoseShortcut);
    app.event('app_mention', mentioned);
    // HTTPReceiver.start resolves with its node:http Server; port 0 lets the OS pick a free port.
    const server = await app.start({ port: 0, host: '127.0.0.1' });
    eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });
  beforeEach(() => {
    commandsSeen.length = 0;
    seen.length = 0;
  });
  afterAll(async () => {
    await app.stop();
    await fake.close();
  });

  const command = (text: string, responseId: string) =>
    slashCommandBody({ text, user_id: 'U0ALICE', channel_id: 'C0OPS', response_url: fake.responseUrl(responseId, { channel: 'C0OPS', user: 'U0ALICE' }) });

  it('verifies the bot token with auth.test, sent from the App constructor without being awaited', async () => {
    await expect(fake.waitFor((f) => f.calls('auth.test')[0], { what: 'auth.test' })).resolves.toMatchObject({ ok: true });
  });

  it('runs the command listener for a correctly signed slash command and acks with its text', async () => {
    const res = await postSigned(eventsUrl, command('git-sensor stuck', 'r1'), { secret });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Looking into: git-sensor stuck');
    // respond() posts JSON to the response_url; with response_type in_channel the fake shows it in the channel.
    await fake.waitFor((f) => f.messages('C0OPS').find((m) => m.text === 'Diagnosis for git-sensor stuck'), { what: 'the diagnosis' });
    expect(fake.responses('r1')[0]?.body).toEqual({ response_type: 'in_channel', text: 'Diagnosis for git-sensor stuck' });
  });

  it('answers 401 to a forged signature and does not run the listener', async () => {
    const body = command('forged', 'r2');
    const ts = Math.floor(Date.now() / 1000);
    const res = await postSigned(eventsUrl, body, { secret, timestamp: ts, signature: sign('not-the-secret', ts, body) });
    expect(res.status).toBe(401);
    expect(commandsSeen).toEqual([]);
  });

  it('answers 401 to a request signed more than 5 minutes ago and does not run the listener', async () => {
    const res = await postSigned(eventsUrl, command('replayed', 'r3'), { secret, timestamp: Math.floor(Date.now() / 1000) - 5 * 60 - 10 });
    expect(res.status).toBe(401);
    expect(commandsSeen).toEqual([]);
  });

  it('delivers a block_actions click whose respond() replaces the original message', async () => {
    const { ts } = await app.client.chat.postMessage({ channel: 'C0OPS', text: 'Restart git-sensor?' });
    const body = blockActionsBody({
      user: 'U0ALICE',
      channel: 'C0OPS',
      message_ts: ts as string,
      action_id: 'approve',
      value: 'git-sensor-stuck',
      block_id: 'decision',
      response_url: fake.responseUrl('click-1', { channel: 'C0OPS', messageTs: ts as string, user: 'U0ALICE' }),
    });
    expect((await postSigned(eventsUrl, body, { secret })).status).toBe(200);
    await fake.waitFor((f) => f.messages('C0OPS').find((m) => m.ts === ts && m.text === 'Approved git-sensor-stuck'), {
      what: 'the message replaced by the approval',
    });
  });

  it('delivers a message shortcut and an Events API callback', async () => {
    const shortcut = messageShortcutBody({
      callback_id: 'diagnose-message',
      user: 'U0ALICE',
      channel: 'C0OPS',
      message: { ts: '1700000000.000100', text: 'nats pod crashlooping', user: 'U0BOB' },
      response_url: fake.responseUrl('shortcut-1'),
    });
    expect((await postSigned(eventsUrl, shortcut, { secret })).status).toBe(200);
    const event = eventCallbackBody({
      type: 'app_mention',
      user: 'U0ALICE',
      text: `<@${FAKE_WORKSPACE.botUserId}> help`,
      ts: '1700000000.000200',
      channel: 'C0OPS',
      event_ts: '1700000000.000200',
    });
    expect((await postSigned(eventsUrl, event, { secret, contentType: 'application/json' })).status).toBe(200);
    await expect.poll(() => seen).toEqual(['shortcut nats pod crashlooping', `mention <@${FAKE_WORKSPACE.botUserId}> help`]);
  });
});
