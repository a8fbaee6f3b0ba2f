import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approver, channel, eventually, requestIdOf, startFix, startStack, type Stack } from '../support/stack.js';

/**
 * An approval cut off between its decision and its run: the bot takes the approval (the attempt's decision is
 * claimed in Redis, and the plan's objects locked), then stops (a crash, a deploy) or loses Redis before it records
 * the remedy as running and queues the run. Nothing ran. The remedy stayed "awaiting approval" for good: its
 * deadline found the attempt already decided and did nothing, every Approve answered "Already approved", a Cancel
 * said "the running step finishes" of a run that did not exist, and the objects stayed locked for a day, so no other
 * remedy could touch them. At its deadline it must end, say so in its thread, and free what it held.
 */
describe('an approval cut off before its run was queued', () => {
  let stack: Stack;
  let redis: Redis;
  beforeAll(async () => {
    stack = await startStack('approval-cut-off', { env: { PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES: '0.1', PLATFORM_MEDIC_DECISION_TIMEOUT_MINUTES: '0.1', PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR: '50' } });
    redis = new Redis(stack.config.redisUrl);
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  it('ends at its deadline with a word in the thread, nothing run, and frees its objects and its entry', async () => {
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await startFix(stack, 'git-sensor-stuck');
    const id = requestIdOf(card);
    const request = (await stack.bot.coordinator.store.get(id))!;
    const plan = (await stack.bot.coordinator.store.plan(id, request.stageId))!;
    const prefix = stack.config.queuePrefix;
    // What the approval had done when it was cut off: the objects locked, the attempt's decision claimed.
    const holder = JSON.stringify({ requestId: id, entryId: request.entryId, requestedBy: request.requestedBy });
    for (const t of plan.steps.filter((s) => s.risk !== 'read-only').flatMap((s) => s.targets)) await redis.set(`${prefix}:lock:sim:${t.kind}/${t.namespace}/${t.name}`, holder, 'EX', 24 * 3600);
    await redis.set(`${prefix}:decision:${id}:${request.stageId}:${request.attempt}`, `approved|${approver}|${new Date().toISOString()}`, 'EX', 3600);
    const deletes = () => stack.sim.requests().filter((r) => r.method === 'DELETE').length;

    const said = await stack.fake
      .waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('❌')), { what: 'the remedy ended in its thread', timeoutMs: 20_000 })
      .catch(() => undefined);
    const thread = JSON.stringify(stack.thread(rootTs).map((m) => m.text));
    expect(said?.text, thread).toBe('❌ The approval was cut off before its run was queued (the bot stopped, or Redis failed, in between); nothing was done. Use "Plan again" for a fresh plan.');
    expect((await stack.bot.coordinator.store.get(id))?.status).toBe('failed');
    expect(deletes()).toBe(0);
    await eventually(async () => (await redis.keys(`${prefix}:lock:*`)).length === 0 && (await redis.exists(`${prefix}:active:sim:git-sensor-stuck`)) === 0, { what: 'its objects and its entry free', timeoutMs: 10_000 });
    // Another fix of the same entry is planned and can be approved.
    const again = await startFix(stack, 'git-sensor-stuck');
    const { responseId } = await stack.click(again.card, 'remedy-approve', approver);
    await eventually(async () => (await stack.bot.coordinator.store.get(requestIdOf(again.card)))?.status !== 'awaiting-approval', { what: 'the second fix approved', timeoutMs: 10_000 });
    expect(stack.fake.responses(responseId)).toEqual([]);
  }, 60_000);

  it('still ends at its deadline when someone pressed Cancel meanwhile, as the run it waited for never comes', async () => {
    await stack.sim.break('build-logs');
    const { rootTs, card } = await startFix(stack, 'build-logs');
    const id = requestIdOf(card);
    const request = (await stack.bot.coordinator.store.get(id))!;
    await redis.set(`${stack.config.queuePrefix}:decision:${id}:${request.stageId}:${request.attempt}`, `approved|${approver}|${new Date().toISOString()}`, 'EX', 3600);
    await stack.click(card, 'remedy-cancel', approver);
    const said = await stack.fake
      .waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('❌')), { what: 'the remedy ended in its thread', timeoutMs: 20_000 })
      .catch(() => undefined);
    expect(said?.text, JSON.stringify(stack.thread(rootTs).map((m) => m.text))).toMatch(/^❌ The approval was cut off before its run was queued/);
    await eventually(async () => (await redis.exists(`${stack.config.queuePrefix}:active:sim:build-logs`)) === 0, { what: 'its entry free', timeoutMs: 10_000 });
  }, 60_000);

  it("ends at the question's deadline when its answer was cut off before the next stage was planned", async () => {
    await stack.sim.break('build-logs');
    const { rootTs, card } = await startFix(stack, 'build-logs');
    const id = requestIdOf(card);
    await stack.click(card, 'remedy-approve', approver);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => JSON.stringify(m.blocks ?? []).includes('"action_id":"remedy-choose')), { what: 'the question', timeoutMs: 30_000 });
    const request = (await stack.bot.coordinator.store.get(id))!;
    expect(request.status).toBe('awaiting-decision');
    // What the answer had done when it was cut off: the question's decision claimed, nothing after it.
    await redis.set(`${stack.config.queuePrefix}:decision:${id}:${request.stageId}:${request.attempt}:question`, `approved|${approver}|${new Date().toISOString()}`, 'EX', 3600);
    const said = await stack.fake
      .waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('❌')), { what: 'the remedy ended in its thread', timeoutMs: 20_000 })
      .catch(() => undefined);
    expect(said?.text, JSON.stringify(stack.thread(rootTs).map((m) => m.text))).toBe('❌ The answer to the question was cut off before the next stage was planned (the bot stopped, or Redis failed, in between); nothing more was done. Ask for the fix again when you want to go on.');
    expect((await stack.bot.coordinator.store.get(id))?.status).toBe('failed');
    await eventually(async () => (await redis.exists(`${stack.config.queuePrefix}:active:sim:build-logs`)) === 0, { what: 'its entry free', timeoutMs: 10_000 });
  }, 90_000);

  it.each([
    ['denied', '🚫 <@U0APPROVER> denied the plan; nothing was done.'],
    ['cancelled', '🛑 Cancelled by <@U0APPROVER>. Steps already done stay done; nothing else will run.'],
  ] as const)('ends at its deadline as %s when that click was cut off after taking the decision', async (verdict, line) => {
    // Found by an attacker's round: the same cut-off for a Deny or a Cancel left the remedy "awaiting approval" for
    // 14 days in status, and every click on its card answered "Already denied".
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await startFix(stack, 'git-sensor-stuck');
    const id = requestIdOf(card);
    const request = (await stack.bot.coordinator.store.get(id))!;
    await redis.set(`${stack.config.queuePrefix}:decision:${id}:${request.stageId}:${request.attempt}`, `${verdict}|${approver}|${new Date().toISOString()}`, 'EX', 3600);
    const said = await stack.fake
      .waitFor((f) => f.thread(channel, rootTs).find((m) => m.text === line), { what: `the remedy ${verdict} in its thread`, timeoutMs: 30_000 })
      .catch(() => undefined);
    expect(said?.text, JSON.stringify(stack.thread(rootTs).map((m) => m.text))).toBe(line);
    expect((await stack.bot.coordinator.store.get(id))?.status).toBe(verdict);
    await eventually(async () => (await redis.exists(`${stack.config.queuePrefix}:active:sim:git-sensor-stuck`)) === 0, { what: 'its entry free', timeoutMs: 10_000 });
  }, 60_000);

  it("ends at the question's deadline as cancelled when a Cancel was cut off after taking the question", async () => {
    // The same cut-off for a Cancel pressed while the guide's question waited: it claims the question, so the answer
    // and the deadline both found it decided, and the remedy stayed "awaiting an answer" for good.
    await stack.sim.break('build-logs');
    const { rootTs, card } = await startFix(stack, 'build-logs');
    const id = requestIdOf(card);
    await stack.click(card, 'remedy-approve', approver);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => JSON.stringify(m.blocks ?? []).includes('"action_id":"remedy-choose')), { what: 'the question', timeoutMs: 30_000 });
    const request = (await stack.bot.coordinator.store.get(id))!;
    await redis.set(`${stack.config.queuePrefix}:decision:${id}:${request.stageId}:${request.attempt}:question`, `cancelled|${approver}|${new Date().toISOString()}`, 'EX', 3600);
    const line = '🛑 Cancelled by <@U0APPROVER>. Steps already done stay done; nothing else will run.';
    const said = await stack.fake
      .waitFor((f) => f.thread(channel, rootTs).find((m) => m.text === line), { what: 'the remedy cancelled in its thread', timeoutMs: 30_000 })
      .catch(() => undefined);
    expect(said?.text, JSON.stringify(stack.thread(rootTs).map((m) => m.text))).toBe(line);
    expect((await stack.bot.coordinator.store.get(id))?.status).toBe('cancelled');
    await eventually(async () => (await redis.exists(`${stack.config.queuePrefix}:active:sim:build-logs`)) === 0, { what: 'its entry free', timeoutMs: 10_000 });
  }, 90_000);
});
