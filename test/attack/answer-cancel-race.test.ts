import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '../fakes/slack-api.js';
import { approver, channel, endRemedy, eventually, requestIdOf, requester, startFix, startStack, type Stack } from '../support/stack.js';

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);

/**
 * The guide's question ("Are the build logs visible now?" → "Still failing" plans the next stage) answered
 * and Cancel pressed on the card at the same moment. Exactly one of them wins: a cancelled remedy, whose
 * thread says "nothing else will run", must not go on to plan its next stage and post a card asking for
 * approval of it; an answer that wins is not said to be cancelled, and the person who pressed Cancel is told.
 */
describe("the guide's question answered and the remedy cancelled at the same moment", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('answer-cancel-race', { env: { PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR: '50' } });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it.each([['Cancel first'], ['Answer first'], ['Cancel first'], ['Answer first']])('%s: one of them wins, and a cancelled remedy plans nothing more', async (order) => {
    await stack.sim.break('build-logs');
    const { rootTs, card } = await startFix(stack, 'build-logs');
    const id = requestIdOf(card);
    await stack.click(card, 'remedy-approve', approver);
    const question = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => hasButton(m, 'remedy-choose')), { what: 'the question', timeoutMs: 30_000 });
    // Cancel is on the card, updated while the remedy runs.
    const current = stack.thread(rootTs).find((m) => m.ts === card.ts)!;
    const cancel = () => stack.click(current, 'remedy-cancel', requester);
    const answer = () => stack.click(question, 'remedy-choose-still-failing', requester);
    const [first, second] = await Promise.all(order === 'Cancel first' ? [cancel(), answer()] : [answer(), cancel()]);
    const [cancelled, answered] = order === 'Cancel first' ? [first, second] : [second, first];
    // Whichever won has said so: the thread that the remedy was cancelled, or a new card for the next stage.
    await eventually(
      async () => {
        const now = (await stack.bot.coordinator.store.get(id))?.status;
        return (now === 'cancelled' && stack.thread(rootTs).some((m) => m.text.startsWith('🛑 Cancelled'))) || (now === 'awaiting-approval' && stack.thread(rootTs).some((m) => hasButton(m, 'remedy-approve') && m.ts !== card.ts));
      },
      { what: 'the remedy cancelled or its next stage planned', timeoutMs: 20_000 },
    );
    // What a lost race would still do (plan the next stage, post its card) has been done by the time its jobs are.
    await eventually(async () => (await stack.queue.getJobs(['waiting', 'active', 'delayed'])).length === 0, { what: 'no job left', timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 500));
    const said = stack.thread(rootTs).map((m) => m.text);
    const status = (await stack.bot.coordinator.store.get(id))?.status;
    const newCards = stack.thread(rootTs).filter((m) => hasButton(m, 'remedy-approve') && m.ts !== card.ts);
    if (said.some((t) => t.startsWith('🛑 Cancelled'))) {
      expect(status, JSON.stringify(said)).toBe('cancelled');
      expect(newCards, JSON.stringify(said)).toEqual([]);
      expect(stack.fake.responses(answered.responseId).map((r) => (r.body as { text: string }).text)).toEqual(['Nothing was done: the remedy was cancelled by <@U0REQUESTER>.']);
      const redis = new Redis(stack.config.redisUrl);
      try {
        expect(await redis.exists(`${stack.config.queuePrefix}:active:sim:build-logs`)).toBe(0);
      } finally {
        redis.disconnect();
      }
    } else {
      expect(status, JSON.stringify(said)).toBe('awaiting-approval');
      expect(newCards).toHaveLength(1);
      expect(stack.fake.responses(cancelled.responseId).map((r) => (r.body as { text: string }).text)).toEqual([
        'Not cancelled: <@U0REQUESTER> has just answered the question, and its answer goes on; cancel from what follows in the thread.',
      ]);
    }
    await endRemedy(stack, id);
  }, 90_000);
});
