import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approver, eventually, requestIdOf, requester, startFix, startStack, type Stack } from '../support/stack.js';

/**
 * Approve (an approver) and Cancel (the person who asked) clicked on the same card at the same moment.
 * Exactly one decision of an approval attempt wins: the thread says the remedy was cancelled once, nothing
 * runs, the person whose click lost is told so (or their click cancels the run it queued), and nothing
 * the remedy held stays held.
 */
describe('Approve and Cancel clicked together', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('approve-cancel-race', { env: { PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR: '50' } });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it.each([['Cancel first'], ['Approve first'], ['Cancel first'], ['Approve first']])('%s: cancelled once, nothing run, nothing left held', async (order) => {
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await startFix(stack, 'git-sensor-stuck');
    const id = requestIdOf(card);
    const deletes = () => stack.sim.requests().filter((r) => r.method === 'DELETE' && r.status < 300).length;
    const before = deletes();
    const cancel = () => stack.click(card, 'remedy-cancel', requester);
    const approve = () => stack.click(card, 'remedy-approve', approver);
    await Promise.all(order === 'Cancel first' ? [cancel(), approve()] : [approve(), cancel()]);
    await eventually(async () => (await stack.bot.coordinator.store.get(id))?.status === 'cancelled', { what: 'the remedy cancelled', timeoutMs: 20_000 });
    // Whatever the run queued by a lost race would post has been posted by the time its job is done.
    await eventually(async () => (await stack.queue.getJobs(['waiting', 'active', 'delayed'])).length === 0, { what: 'no job left' });
    // The thread is told after the state is stored: wait for it, then count.
    await stack.fake.waitFor(() => stack.thread(rootTs).find((m) => m.text.startsWith('🛑 Cancelled')), { what: 'the cancellation in the thread', timeoutMs: 10_000 }).catch(() => undefined);
    const said = stack.thread(rootTs).map((m) => m.text);
    expect(said.filter((t) => t.startsWith('🛑 Cancelled')), JSON.stringify(said)).toHaveLength(1);
    expect(deletes()).toBe(before);
    const redis = new Redis(stack.config.redisUrl);
    try {
      expect(await redis.keys(`${stack.config.queuePrefix}:lock:*`)).toEqual([]);
      expect(await redis.exists(`${stack.config.queuePrefix}:active:sim:git-sensor-stuck`)).toBe(0);
    } finally {
      redis.disconnect();
    }
  }, 60_000);
});
