import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '../fakes/slack-api.js';
import { approver, channel, startStack, type Stack } from '../support/stack.js';

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);

/**
 * Slack refuses the one chat.postMessage that carries the approval card (`internal_error`, which Slack
 * answers now and then and the Web API client does not retry). Nobody can approve or cancel a card that
 * was never shown: the thread must say so at once and the entry must be free, not held in silence until
 * the approval would have expired (15 minutes).
 */
describe('an approval card Slack refused to post', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('card-post-fails');
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('is said in the thread at once, with Plan again, and the entry is free', async () => {
    await stack.sim.break('git-sensor-stuck');
    // The worker is away while the fix is asked, so the card is the next post after the announcement.
    await stack.killWorker();
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    expect((await stack.slash('fix git-sensor-stuck')).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts)));
    stack.fake.failNext('chat.postMessage', 'internal_error');
    await stack.startWorker();

    const said = await stack.fake
      .waitFor((f) => f.thread(channel, root.ts).find((m) => m.ts !== root.ts), { what: 'a message after the refused card', timeoutMs: 10_000 })
      .catch(() => undefined);
    expect(said?.text, `thread: ${JSON.stringify(stack.thread(root.ts).map((m) => m.text))}`).toMatch(/^❌ The approval card could not be posted \(.*internal_error.*\); nothing was done/);
    expect(hasButton(said!, 'remedy-replan')).toBe(true);

    // The entry is free: nobody is told it is "already being fixed" by a remedy whose card they cannot see.
    const other = await stack.slash('fix git-sensor-stuck', approver, { responseId: 'after-unposted' });
    expect(other.text).not.toContain('already being fixed');
    const second = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts) && m.ts !== root.ts), { what: 'the second announcement' });
    const card = await stack.fake.waitFor((f) => f.thread(channel, second.ts).find((m) => hasButton(m, 'remedy-approve')), { what: 'the second card', timeoutMs: 15_000 });
    await stack.click(card, 'remedy-deny', approver);
  }, 60_000);
});
