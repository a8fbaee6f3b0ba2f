import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, startFakeSlackApi } from '../fakes/slack-api.js';
import type { FakeSlackApi } from '../fakes/slack-api.js';
import { webClientFor } from './web-client.js';

/** Posts to a response URL the way Bolt's respond() does: JSON, no auth. */
const respond = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('fake Slack response URLs', () => {
  let fake: FakeSlackApi;
  let clock = 1_700_000_000_000;
  beforeAll(async () => {
    fake = await startFakeSlackApi({ now: () => clock });
  });
  beforeEach(() => fake.reset());
  afterAll(() => fake.close());

  it('accepts 5 uses and answers the 6th with 404 used_too_many_times', async () => {
    const url = fake.responseUrl('cmd-1');
    for (let i = 1; i <= 5; i += 1) expect((await respond(url, { text: `update ${i}` })).status).toBe(200);
    const sixth = await respond(url, { text: 'update 6' });
    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toEqual({ ok: false, error: 'used_too_many_times' });
    expect(fake.responses('cmd-1').map((r) => r.ok)).toEqual([true, true, true, true, true, false]);
  });

  it('expires a response URL 30 minutes after it was issued', async () => {
    const url = fake.responseUrl('cmd-2');
    clock += 30 * 60 * 1000 + 1;
    const late = await respond(url, { text: 'too late' });
    expect(late.status).toBe(404);
    expect(await late.json()).toMatchObject({ error: 'expired_url' });
  });

  it('checks Block Kit limits like chat.postMessage', async () => {
    const url = fake.responseUrl('cmd-3');
    const res = await respond(url, { blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }] });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      ok: false,
      error: 'invalid_blocks',
      errors: ['must be less than 151 characters [json-pointer:/blocks/0/text/text]'],
    });
  });

  it('replaces, posts in channel and deletes relative to the message it came from', async () => {
    const { ts } = await webClientFor(fake).chat.postMessage({ channel: 'C1', text: 'Restart git-sensor?' });
    const url = fake.responseUrl('click-1', { channel: 'C1', messageTs: ts as string, user: 'U0ALICE' });

    await respond(url, { replace_original: true, text: 'Approved', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Approved by <@U0ALICE>' } }] });
    expect(blocksText(fake.messages('C1')[0]?.blocks)).toBe('Approved by <@U0ALICE>');

    await respond(url, { text: 'only for you' });
    expect(fake.ephemerals('U0ALICE').map((e) => e.text)).toEqual(['only for you']);

    await respond(url, { response_type: 'in_channel', text: 'for everyone' });
    expect(fake.messages('C1').map((m) => m.text)).toEqual(['Approved', 'for everyone']);

    await respond(url, { delete_original: true });
    expect(fake.messages('C1').map((m) => m.text)).toEqual(['for everyone']);
  });
});
