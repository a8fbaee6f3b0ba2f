import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, startFakeSlackApi } from '../fakes/slack-api.js';
import type { FakeSlackApi } from '../fakes/slack-api.js';
import { webClientFor } from './web-client.js';

type Block = Record<string, unknown>;

const plain = (text: string) => ({ type: 'plain_text', text });
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const section = (text: string): Block => ({ type: 'section', text: mrkdwn(text) });
const button = (over: Record<string, unknown> = {}): Block => ({ type: 'button', text: plain('Run'), action_id: 'run', value: 'v', ...over });
const actions = (elements: Block[]): Block => ({ type: 'actions', elements });
const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

/** Each case: blocks exactly at a limit (accepted) and one past it (rejected, with this reason). */
const cases: { limit: string; atLimit: Block[]; overLimit: Block[]; reason: string }[] = [
  {
    limit: '50 blocks per message',
    atLimit: many(LIMITS.blocksPerMessage, () => ({ type: 'divider' })),
    overLimit: many(LIMITS.blocksPerMessage + 1, () => ({ type: 'divider' })),
    reason: 'no more than 50 items allowed [json-pointer:/blocks]',
  },
  {
    limit: 'section text 3000',
    atLimit: [section('a'.repeat(3000))],
    overLimit: [section('a'.repeat(3001))],
    reason: 'must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
  },
  {
    limit: '10 section fields',
    atLimit: [{ type: 'section', fields: many(10, (i) => mrkdwn(`f${i}`)) }],
    overLimit: [{ type: 'section', fields: many(11, (i) => mrkdwn(`f${i}`)) }],
    reason: 'no more than 10 items allowed [json-pointer:/blocks/0/fields]',
  },
  {
    limit: 'section field 2000',
    atLimit: [{ type: 'section', fields: [mrkdwn('a'.repeat(2000))] }],
    overLimit: [{ type: 'section', fields: [mrkdwn('ok'), mrkdwn('a'.repeat(2001))] }],
    reason: 'must be less than 2001 characters [json-pointer:/blocks/0/fields/1/text]',
  },
  {
    limit: 'header 150 plain_text',
    atLimit: [{ type: 'header', text: plain('h'.repeat(150)) }],
    overLimit: [{ type: 'header', text: plain('h'.repeat(151)) }],
    reason: 'must be less than 151 characters [json-pointer:/blocks/0/text/text]',
  },
  {
    limit: 'header is plain_text only',
    atLimit: [{ type: 'header', text: plain('Title') }],
    overLimit: [{ type: 'header', text: mrkdwn('*Title*') }],
    reason: 'must be a plain_text text object [json-pointer:/blocks/0/text/type]',
  },
  {
    limit: 'button text 75',
    atLimit: [actions([button({ text: plain('b'.repeat(75)) })])],
    overLimit: [actions([button({ text: plain('b'.repeat(76)) })])],
    reason: 'must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]',
  },
  {
    limit: 'button text is plain_text',
    atLimit: [actions([button()])],
    overLimit: [actions([button({ text: mrkdwn('*Run*') })])],
    reason: 'must be a plain_text text object [json-pointer:/blocks/0/elements/0/text/type]',
  },
  {
    limit: 'action_id 255',
    atLimit: [actions([button({ action_id: 'a'.repeat(255) })])],
    overLimit: [actions([button({ action_id: 'a'.repeat(256) })])],
    reason: 'must be less than 256 characters [json-pointer:/blocks/0/elements/0/action_id]',
  },
  {
    limit: 'button value 2000',
    atLimit: [actions([button({ value: 'v'.repeat(2000) })])],
    overLimit: [actions([button({ value: 'v'.repeat(2001) })])],
    reason: 'must be less than 2001 characters [json-pointer:/blocks/0/elements/0/value]',
  },
  {
    limit: 'button url 3000',
    atLimit: [actions([button({ url: `https://x/${'u'.repeat(2990)}` })])],
    overLimit: [actions([button({ url: `https://x/${'u'.repeat(2991)}` })])],
    reason: 'must be less than 3001 characters [json-pointer:/blocks/0/elements/0/url]',
  },
  {
    limit: 'section accessory button',
    atLimit: [{ ...section('s'), accessory: button() }],
    overLimit: [{ ...section('s'), accessory: button({ value: 'v'.repeat(2001) }) }],
    reason: 'must be less than 2001 characters [json-pointer:/blocks/0/accessory/value]',
  },
  {
    limit: 'block_id 255',
    atLimit: [{ ...section('s'), block_id: 'b'.repeat(255) }],
    overLimit: [{ ...section('s'), block_id: 'b'.repeat(256) }],
    reason: 'must be less than 256 characters [json-pointer:/blocks/0/block_id]',
  },
  {
    limit: '25 elements per actions block',
    atLimit: [actions(many(25, (i) => button({ action_id: `a${i}` })))],
    overLimit: [actions(many(26, (i) => button({ action_id: `a${i}` })))],
    reason: 'no more than 25 items allowed [json-pointer:/blocks/0/elements]',
  },
  {
    limit: '10 elements per context block',
    atLimit: [{ type: 'context', elements: many(10, (i) => mrkdwn(`c${i}`)) }],
    overLimit: [{ type: 'context', elements: many(11, (i) => mrkdwn(`c${i}`)) }],
    reason: 'no more than 10 items allowed [json-pointer:/blocks/0/elements]',
  },
  {
    limit: 'block_id unique in a message',
    atLimit: [{ ...section('a'), block_id: 'one' }, { ...section('b'), block_id: 'two' }],
    overLimit: [{ ...section('a'), block_id: 'same' }, { ...section('b'), block_id: 'same' }],
    reason: 'duplicate block_id "same" [json-pointer:/blocks/1/block_id]',
  },
  {
    limit: 'action_id unique in a block',
    atLimit: [actions([button({ action_id: 'a' })]), actions([button({ action_id: 'a' })])],
    overLimit: [actions([button({ action_id: 'a' }), button({ action_id: 'a' })])],
    reason: 'duplicate action_id "a" [json-pointer:/blocks/0/elements/1/action_id]',
  },
  {
    limit: 'text object type',
    atLimit: [{ type: 'section', text: plain('plain is fine') }],
    overLimit: [{ type: 'section', text: { type: 'markdown', text: 'x' } }],
    reason: 'must be one of [plain_text, mrkdwn] [json-pointer:/blocks/0/text/type]',
  },
  {
    limit: 'text is not empty',
    atLimit: [section('x')],
    overLimit: [section('')],
    reason: 'must be more than 0 characters [json-pointer:/blocks/0/text/text]',
  },
];

describe('fake Slack enforces Block Kit limits on chat.postMessage', () => {
  let fake: FakeSlackApi;
  beforeAll(async () => {
    fake = await startFakeSlackApi({ rateLimit: false });
  });
  afterAll(() => fake.close());
  // apiCall takes loose arguments: these blocks are wrong on purpose, so the typed methods would refuse them.
  const post = (args: Record<string, unknown>) => webClientFor(fake).apiCall('chat.postMessage', args);

  it.each(cases)('accepts blocks at the limit: $limit', async ({ atLimit }) => {
    await expect(post({ channel: 'C1', text: 't', blocks: atLimit })).resolves.toMatchObject({ ok: true });
  });

  it.each(cases)('rejects blocks past the limit with the reason: $limit', async ({ overLimit, reason }) => {
    const before = fake.messages('C1').length;
    await expect(post({ channel: 'C1', text: 't', blocks: overLimit })).rejects.toMatchObject({
      data: { ok: false, error: 'invalid_blocks', errors: [reason] },
    });
    expect(fake.messages('C1')).toHaveLength(before);
  });

  it('applies the same limits to chat.update and leaves the message unchanged', async () => {
    const client = webClientFor(fake);
    await post({ channel: 'C2', text: 'orig', blocks: [section('orig')] });
    const ts = fake.messages('C2')[0]?.ts;
    await expect(client.apiCall('chat.update', { channel: 'C2', ts, blocks: [section('a'.repeat(3001))] })).rejects.toMatchObject({
      data: { error: 'invalid_blocks' },
    });
    expect(fake.messages('C2')[0]?.blocks).toEqual([section('orig')]);
  });
});

describe('fake Slack enforces modal limits on views.open', () => {
  let fake: FakeSlackApi;
  beforeAll(async () => {
    fake = await startFakeSlackApi();
  });
  afterAll(() => fake.close());

  const modal = (over: Record<string, unknown> = {}) => ({
    type: 'modal',
    title: plain('Approve restart'),
    submit: plain('Approve'),
    close: plain('Cancel'),
    callback_id: 'approve',
    private_metadata: '',
    blocks: [section('Restart git-sensor?')],
    ...over,
  });

  const modalCases: { limit: string; over: Record<string, unknown>; reason: string }[] = [
    { limit: 'title 24', over: { title: plain('t'.repeat(25)) }, reason: 'must be less than 25 characters [json-pointer:/view/title/text]' },
    { limit: 'submit 24', over: { submit: plain('s'.repeat(25)) }, reason: 'must be less than 25 characters [json-pointer:/view/submit/text]' },
    { limit: 'close 24', over: { close: plain('c'.repeat(25)) }, reason: 'must be less than 25 characters [json-pointer:/view/close/text]' },
    {
      limit: 'private_metadata 3000',
      over: { private_metadata: 'm'.repeat(3001) },
      reason: 'must be less than 3001 characters [json-pointer:/view/private_metadata]',
    },
    { limit: 'callback_id 255', over: { callback_id: 'c'.repeat(256) }, reason: 'must be less than 256 characters [json-pointer:/view/callback_id]' },
    {
      limit: '100 blocks',
      over: { blocks: many(101, () => ({ type: 'divider' })) },
      reason: 'no more than 100 items allowed [json-pointer:/view/blocks]',
    },
  ];

  it('accepts a modal at every limit', async () => {
    const atLimits = modal({
      title: plain('t'.repeat(24)),
      submit: plain('s'.repeat(24)),
      close: plain('c'.repeat(24)),
      private_metadata: 'm'.repeat(3000),
      callback_id: 'c'.repeat(255),
      blocks: many(100, () => ({ type: 'divider' })),
    });
    await expect(webClientFor(fake).apiCall('views.open', { trigger_id: '1.2.x', view: atLimits })).resolves.toMatchObject({ ok: true });
  });

  it.each(modalCases)('rejects a modal past the limit: $limit', async ({ over, reason }) => {
    await expect(webClientFor(fake).apiCall('views.open', { trigger_id: '1.2.x', view: modal(over) })).rejects.toMatchObject({
      data: { error: 'invalid_arguments', response_metadata: { messages: [`[ERROR] ${reason}`] } },
    });
  });
});
