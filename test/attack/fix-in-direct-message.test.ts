import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSigned, slashCommandBody } from '../support/slack-requests.js';
import { approver, bystander, endRemedy, requestIdOf, signingSecret, startFix, startStack, type Stack } from '../support/stack.js';

/**
 * `/platform fix` typed in a person's direct message with the bot: its announcement and approval card would
 * be posted in that direct message, where no approver can see them. For someone who is not an approver, the
 * card could never be approved, denied or cancelled by anyone else, yet it held the entry for as long as an
 * approval waits (15 minutes, plus 5): anyone could keep an entry from being fixed, ten entries an hour.
 */
describe('a fix asked for in a direct message with the bot', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('fix-in-dm');
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('is refused for someone who cannot approve it, privately, with where to ask; nothing is posted and the entry stays free', async () => {
    await stack.sim.break('git-sensor-stuck');
    const dm = 'D0BYSTANDER';
    const body = slashCommandBody({ text: 'fix git-sensor-stuck', user_id: bystander, channel_id: dm, channel_name: 'directmessage', response_url: stack.fake.responseUrl('dm-fix', { channel: dm, user: bystander }) });
    const res = await postSigned(stack.eventsUrl, body, { secret: signingSecret });
    expect(res.status).toBe(200);
    const told = await stack.fake.waitFor((f) => f.responses('dm-fix')[0], { what: 'the refusal', timeoutMs: 15_000 }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
    expect(stack.fake.messages(dm).map((m) => m.text)).toEqual([]);
    expect((told?.body as { text?: string } | undefined)?.text).toBe(
      'A fix asked for in a direct message would have its approval card here, where no approver of `sim` can see it. Ask for it in a channel (`/platform fix git-sensor-stuck` there); nothing was done.',
    );

    // The entry is free: an approver asking in the channel gets a card.
    const { card } = await startFix(stack, 'git-sensor-stuck');
    await endRemedy(stack, requestIdOf(card));
  }, 60_000);

  it('quotes the line to type back as text: a value typed with a backtick and a mention after it mentions no one', async () => {
    const dm = 'D0BYSTANDER';
    const text = 'fix dashboards-missing sim metricsStore=http://a.svc/`<@U0VICTIM>`<http://evil.example|click>';
    const body = slashCommandBody({ text, user_id: bystander, channel_id: dm, channel_name: 'directmessage', response_url: stack.fake.responseUrl('dm-typed', { channel: dm, user: bystander }) });
    expect((await postSigned(stack.eventsUrl, body, { secret: signingSecret })).status).toBe(200);
    const told = await stack.fake.waitFor((f) => f.responses('dm-typed')[0], { what: 'the refusal', timeoutMs: 15_000 });
    const said = (told.body as { text?: string }).text ?? '';
    expect(said).toContain('A fix asked for in a direct message would have its approval card here');
    expect(said).not.toMatch(/<[!@#]|<https?:/);
    expect(stack.fake.messages(dm).map((m) => m.text)).toEqual([]);
  }, 60_000);

  it('still plans the fix of an approver, who can approve or cancel it there', async () => {
    const dm = 'D0APPROVER';
    const body = slashCommandBody({ text: 'fix git-sensor-stuck', user_id: approver, channel_id: dm, channel_name: 'directmessage', response_url: stack.fake.responseUrl('dm-approver', { channel: dm, user: approver }) });
    expect((await postSigned(stack.eventsUrl, body, { secret: signingSecret })).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(dm).find((m) => !m.thread_ts || m.thread_ts === m.ts), { what: 'the announcement in the direct message' });
    const card = await stack.fake.waitFor((f) => f.thread(dm, root.ts).find((m) => JSON.stringify(m.blocks ?? []).includes('"action_id":"remedy-approve')), { what: 'the card', timeoutMs: 15_000 });
    await endRemedy(stack, requestIdOf(card));
  }, 60_000);
});
