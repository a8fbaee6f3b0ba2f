import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { blockActionsBody, postSigned } from '../support/slack-requests.js';
import { channel, requester, signingSecret, startStack, testRedisUrl, type Stack } from '../support/stack.js';

describe('the /platform command and its guards', () => {
  let stack: Stack;
  let redis: Redis;
  /** What a fix request leaves in Redis: its record and its jobs. */
  const traces = async () => ({
    requests: await redis.keys(`${stack.config.queuePrefix}:request:*`),
    jobs: Object.values(await stack.queue.getJobCounts()).reduce((a, b) => a + b, 0),
  });

  beforeAll(async () => {
    stack = await startStack('surface');
    redis = new Redis(testRedisUrl);
  });
  afterAll(async () => {
    await stack?.stop();
    redis?.disconnect();
  });

  it('rejects a forged signature with 401 and changes nothing', async () => {
    const before = stack.fake.calls().length;
    const left = await traces();
    const res = await stack.slash('fix git-sensor-stuck', requester, { signature: 'v0=' + 'ab'.repeat(32) });
    // Refused before Bolt dispatches it: by this answer, no listener has run or will.
    expect(res.status).toBe(401);
    expect(stack.fake.calls().slice(before).filter((c) => c.method !== 'auth.test')).toEqual([]);
    expect(await traces()).toEqual(left);
  });

  it('rejects a replayed request (timestamp older than 5 minutes) with 401 and changes nothing', async () => {
    const before = stack.fake.calls().length;
    const left = await traces();
    const res = await stack.slash('fix git-sensor-stuck', requester, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(res.status).toBe(401);
    expect(stack.fake.calls().slice(before)).toEqual([]);
    expect(await traces()).toEqual(left);
  });

  it('answers an unknown entry with the closest ids, privately, in the acknowledgement', async () => {
    const res = await stack.slash('fix build-log');
    expect(res.status).toBe(200);
    const body = res.json as { response_type: string; text: string; blocks: unknown };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toMatch(/^There is no remedy `build-log`\. Closest: build-logs\./);
    expect(blocksText(body.blocks)).toContain('`build-logs`');
  });

  it('answers an unknown cluster, a missing id and an unknown command with what to type instead', async () => {
    expect(((await stack.slash('fix build-logs prod-us')).json as { text: string }).text).toBe('There is no cluster `prod-us`. Configured clusters: `sim`.');
    // Named as typed: Slack sent `a&amp;b` for `a&b`, and the answer escapes it once for Slack to show `a&b`.
    expect(((await stack.slash('fix build-logs a&amp;b')).json as { text: string }).text).toBe('There is no cluster `a&amp;b`. Configured clusters: `sim`.');
    expect(((await stack.slash('fix')).json as { text: string }).text).toContain('Usage: `/platform fix <id> [cluster] [name=value …]`');
    const unknown = (await stack.slash('frobnicate')).json as { text: string; blocks: unknown };
    expect(unknown.text).toBe('Unknown command `frobnicate`. Try `/platform help`.');
  });

  it('lists the catalogue and shows help', async () => {
    const list = (await stack.slash('list')).json as { blocks: unknown };
    expect(blocksText(list.blocks)).toContain('`build-logs` (guide 7.4) — Build logs not visible and build cannot be aborted');
    const help = (await stack.slash('help')).json as { blocks: unknown };
    expect(blocksText(help.blocks)).toContain('/platform fix <id> [cluster]');
    // The bot asked Slack who it is once, at start; not before every request.
    expect(stack.fake.calls('auth.test')).toHaveLength(1);
  });

  it('answers a malformed button privately and does nothing', async () => {
    const body = blockActionsBody({
      user: requester,
      channel,
      message_ts: '1.000001',
      action_id: 'remedy-approve',
      value: '{"r":1}',
      block_id: 'plan-x',
      response_url: stack.fake.responseUrl('malformed', { channel, user: requester }),
    });
    expect((await postSigned(stack.eventsUrl, body, { secret: signingSecret })).status).toBe(200);
    const r = await stack.fake.waitFor((f) => f.responses('malformed')[0]);
    expect(r.body).toMatchObject({ response_type: 'ephemeral', text: 'This button is malformed; nothing was done.' });
  });

  it('fixes git-sensor-stuck end to end: git-sensor-0 comes back with a new uid', async () => {
    await stack.sim.break('git-sensor-stuck');
    const uid = (stack.sim.get({ group: '', version: 'v1', plural: 'pods' }, 'devtroncd', 'git-sensor-0') as { metadata: { uid: string } }).metadata.uid;
    expect((await stack.slash('fix git-sensor-stuck')).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && m.text.includes('git-sensor-stuck')));
    const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => blocksText(m.blocks).includes('Approve')), { timeoutMs: 15_000 });
    expect(blocksText(card.blocks)).toContain(`delete Pod \`devtroncd/git-sensor-0\` (uid \`${uid.slice(0, 8)}\``);
    await stack.click(card, 'remedy-approve', 'U0APPROVER');
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.ts === root.ts && m.text.endsWith('✅ symptom cleared')), { timeoutMs: 20_000 });
    const now = stack.sim.get({ group: '', version: 'v1', plural: 'pods' }, 'devtroncd', 'git-sensor-0') as { metadata: { uid: string } };
    expect(now.metadata.uid).not.toBe(uid);
    expect(stack.sim.symptoms()).not.toContain('git-sensor-stuck');
  });
});
