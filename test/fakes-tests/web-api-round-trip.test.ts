import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, startFakeSlackApi } from '../fakes/slack-api.js';
import type { FakeSlackApi } from '../fakes/slack-api.js';
import { webClientFor } from './web-client.js';

const CHANNEL = 'C0OPS';
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('fake Slack Web API driven by the real WebClient', () => {
  let fake: FakeSlackApi;
  beforeAll(async () => {
    fake = await startFakeSlackApi({ users: [{ id: 'U0ALICE', name: 'alice', email: 'alice@example.com' }] });
  });
  beforeEach(() => fake.reset());
  afterAll(() => fake.close());

  it('posts, updates and threads a message, and reports the current state', async () => {
    const client = webClientFor(fake);
    const posted = await client.chat.postMessage({ channel: CHANNEL, text: 'diagnosing', blocks: [section('*Diagnosing* git-sensor')] });
    expect(posted.ts).toMatch(/^\d+\.\d{6}$/);
    const reply = await client.chat.postMessage({ channel: CHANNEL, thread_ts: posted.ts, text: 'step 1 done' });
    expect(Number(reply.ts)).toBeGreaterThan(Number(posted.ts));

    await client.chat.update({ channel: CHANNEL, ts: posted.ts as string, text: 'fixed', blocks: [section('Fixed git-sensor')] });

    const [parent] = fake.messages(CHANNEL);
    expect(blocksText(parent?.blocks)).toBe('Fixed git-sensor');
    expect(parent?.text).toBe('fixed');
    expect(parent?.edited).toBeDefined();
    expect(fake.thread(CHANNEL, posted.ts as string).map((m) => m.text)).toEqual(['fixed', 'step 1 done']);
    const replies = await client.conversations.replies({ channel: CHANNEL, ts: posted.ts as string });
    expect(replies.messages?.map((m) => m.text)).toEqual(['fixed', 'step 1 done']);
    // The form encoding carried blocks as a JSON string; the record holds them as objects.
    expect(fake.calls('chat.postMessage')[0]?.args.blocks).toEqual([section('*Diagnosing* git-sensor')]);
  });

  it('refuses to update a message that does not exist', async () => {
    await expect(webClientFor(fake).chat.update({ channel: CHANNEL, ts: '1.000001', text: 'x' })).rejects.toMatchObject({
      data: { ok: false, error: 'message_not_found' },
    });
  });

  it('shows an ephemeral message only to its user and gives its message_ts', async () => {
    const result = await webClientFor(fake).chat.postEphemeral({ channel: CHANNEL, user: 'U0ALICE', text: 'only you' });
    expect(result.message_ts).toMatch(/^\d+\.\d{6}$/);
    expect(fake.ephemerals('U0ALICE').map((e) => e.text)).toEqual(['only you']);
    expect(fake.ephemerals('U0BOB')).toEqual([]);
    expect(fake.messages(CHANNEL)).toEqual([]);
  });

  it('answers auth.test, users.info and chat.getPermalink', async () => {
    const client = webClientFor(fake);
    expect(await client.auth.test()).toMatchObject({ ok: true, user_id: fake.identity.botUserId, bot_id: fake.identity.botId });
    expect((await client.users.info({ user: 'U0ALICE' })).user?.profile?.email).toBe('alice@example.com');
    await expect(client.users.info({ user: 'U0NOBODY' })).rejects.toMatchObject({ data: { error: 'user_not_found' } });
    const { ts } = await client.chat.postMessage({ channel: CHANNEL, text: 'hi' });
    const link = await client.chat.getPermalink({ channel: CHANNEL, message_ts: ts as string });
    expect(link.permalink).toContain(`/archives/${CHANNEL}/p${(ts as string).replace('.', '')}`);
  });

  it('rejects a wrong token with invalid_auth and a missing one with not_authed', async () => {
    await expect(webClientFor(fake, 'xoxb-wrong').chat.postMessage({ channel: CHANNEL, text: 'x' })).rejects.toMatchObject({
      data: { error: 'invalid_auth' },
    });
    const anonymous = webClientFor(fake, '');
    await expect(anonymous.chat.postMessage({ channel: CHANNEL, text: 'x' })).rejects.toMatchObject({ data: { error: 'not_authed' } });
    expect(fake.messages(CHANNEL)).toEqual([]);
  });

  it('answers unknown_method for methods it does not implement', async () => {
    await expect(webClientFor(fake).apiCall('chat.meMessage', { channel: CHANNEL, text: 'x' })).rejects.toMatchObject({
      data: { error: 'unknown_method' },
    });
  });

  it('accepts JSON bodies as well as forms', async () => {
    const response = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${fake.botToken}` },
      body: JSON.stringify({ channel: CHANNEL, text: 'as json', blocks: [section('json block')] }),
    });
    expect(await response.json()).toMatchObject({ ok: true, channel: CHANNEL });
    expect(blocksText(fake.messages(CHANNEL)[0]?.blocks)).toBe('json block');
  });

  it('truncates message text past 40,000 characters, as Slack does', async () => {
    await webClientFor(fake).chat.postMessage({ channel: CHANNEL, text: 'x'.repeat(40_001) });
    expect(fake.messages(CHANNEL)[0]?.text).toHaveLength(40_000);
  });

  it('opens and updates a modal, refusing a stale hash', async () => {
    const client = webClientFor(fake);
    const modal = { type: 'modal' as const, title: { type: 'plain_text' as const, text: 'Approve' }, blocks: [] };
    const opened = await client.views.open({ trigger_id: '1.2.abc', view: modal });
    const id = opened.view?.id as string;
    await client.views.update({ view_id: id, hash: opened.view?.hash as string, view: { ...modal, callback_id: 'approve' } });
    await expect(client.views.update({ view_id: id, hash: opened.view?.hash as string, view: modal })).rejects.toMatchObject({
      data: { error: 'hash_conflict' },
    });
    expect(fake.views()[0]?.view.callback_id).toBe('approve');
  });

  it('fails a call on request, for testing error paths', async () => {
    fake.failNext('chat.postMessage', 'channel_not_found');
    const client = webClientFor(fake);
    await expect(client.chat.postMessage({ channel: CHANNEL, text: 'x' })).rejects.toMatchObject({ data: { error: 'channel_not_found' } });
    await expect(client.chat.postMessage({ channel: CHANNEL, text: 'x' })).resolves.toMatchObject({ ok: true });
  });

  it('waitFor resolves on a later call and times out listing the calls it saw', async () => {
    const client = webClientFor(fake);
    const waiting = fake.waitFor((f) => f.messages(CHANNEL).find((m) => m.text === 'second'));
    await client.chat.postMessage({ channel: CHANNEL, text: 'first' });
    await client.chat.postMessage({ channel: CHANNEL, text: 'second' });
    await expect(waiting).resolves.toMatchObject({ text: 'second' });
    await expect(fake.waitFor((f) => f.messages(CHANNEL).length > 5, { timeoutMs: 50, what: 'six messages' })).rejects.toThrow(
      /six messages.*\n.*chat\.postMessage C0OPS "first" → ok/,
    );
  });
});
