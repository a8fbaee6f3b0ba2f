import { describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { startOwnRedis } from '../support/own-redis.js';
import { approver, channel, jobsOf, requestIdOf, requester, startFix, startStack } from '../support/stack.js';

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);
const shown = (m: StoredMessage) => `${m.text}\n${blocksText(m.blocks)}`;

describe('Redis that lost its data', () => {
  it('restarted empty in the middle of a wait: the thread says the state was lost and nothing more will run; cancel, audit and Plan again agree', async () => {
    const redis = await startOwnRedis();
    // The wait outlasts the restart, so without a check the thread would show "Waiting" forever.
    const stack = await startStack('lost-state', { redisUrl: redis.url, env: { PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS: '600' } });
    try {
      await stack.sim.break('build-logs');
      const { rootTs, card } = await startFix(stack, 'build-logs');
      await stack.click(card, 'remedy-approve', approver);
      await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('⏳ Step 3 of 4: Waiting 10 minutes')), { timeoutMs: 20_000 });
      // The card as a person's Slack shows it during the wait, with its Cancel button.
      const waitingCard = structuredClone(await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.ts === card.ts && hasButton(m, 'remedy-cancel'))));

      // Given Redis restarted without persistence (its queues, requests and audit trail gone)…
      await redis.kill();
      await redis.start();

      // …then the thread says so, says nothing more will run, and offers a fresh plan.
      const lost = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => /state was lost/.test(m.text)), { timeoutMs: 30_000 });
      expect(lost.text).toBe(
        "❌ This remedy's state was lost: Redis, which keeps the queues, lost its data (it restarted without persistence, or was flushed). Nothing more of this remedy will run; steps already done stay done. Plan again to start this stage afresh.",
      );
      expect(hasButton(lost, 'remedy-replan')).toBe(true);
      const cardNow = stack.thread(rootTs).find((m) => m.ts === card.ts)!;
      expect(blocksText(cardNow.blocks)).toContain('state lost');
      // The channel sees it on the root message without opening the thread.
      await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.ts === rootTs && m.text.endsWith(' — ❌ state lost')));

      // Cancel agrees: there is nothing left to cancel, and it says why.
      const cancel = await stack.click(waitingCard, 'remedy-cancel', requester);
      const answer = await stack.fake.waitFor((f) => f.responses(cancel.responseId)[0]);
      expect(String(answer.body.text)).toBe("Nothing to cancel: this remedy's state was lost, and nothing more of it will run.");

      // The audit trail, kept in the Redis that was emptied, starts again with what happened.
      const audit = (await stack.slash('audit', approver)).json as { blocks: unknown };
      expect(JSON.stringify(audit.blocks)).toMatch(/\*lost\* `build-logs` on `sim`/);

      // Plan again plans the stage afresh, with a new approval card.
      const cards = stack.thread(rootTs).filter((m) => hasButton(m, 'remedy-approve')).length;
      await stack.click(lost, 'remedy-replan', requester);
      await stack.fake.waitFor((f) => (f.thread(channel, rootTs).filter((m) => hasButton(m, 'remedy-approve')).length > cards ? true : undefined), { timeoutMs: 20_000 });
      // The lost message was posted once, however many checks noticed the loss.
      expect(stack.thread(rootTs).filter((m) => /state was lost/.test(shown(m)) && m.ts !== card.ts)).toHaveLength(1);
    } finally {
      await stack.stop();
      await redis.stop();
    }
  }, 120_000);

  it('a plan awaiting approval while Redis is away, then restarted empty: each click on its card is told privately what happened, and nothing runs', async () => {
    const redis = await startOwnRedis();
    const stack = await startStack('lost-approval', { redisUrl: redis.url });
    try {
      await stack.sim.break('git-sensor-stuck');
      const { rootTs, card: posted } = await startFix(stack, 'git-sensor-stuck');
      // The card as the approver's Slack keeps showing it, whatever the bot does to it meanwhile.
      const card = structuredClone(posted);
      const deletes = () => stack.sim.requests().filter((r) => r.method === 'DELETE');
      const deletedBefore = deletes().length;

      // Given Redis is away, the approver's click is told so, and only they see it.
      await redis.kill();
      let told;
      try {
        const during = await stack.click(card, 'remedy-approve', approver);
        expect(during.response.status).toBe(200);
        told = await stack.fake.waitFor((f) => f.responses(during.responseId)[0], { timeoutMs: 10_000, what: 'an answer to the click' }).catch(() => undefined);
      } finally {
        await redis.start();
      }
      expect(told?.body).toEqual({
        response_type: 'ephemeral',
        replace_original: false,
        text: 'I cannot check this request right now (the queue, Redis, does not answer); nothing was done. Try again in a minute.',
      });

      // Redis came back empty: once the thread says the state was lost, the approver clicks the card
      // their Slack still shows, and is told, only them, that nothing was done and why.
      await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => /state was lost/.test(m.text)), { timeoutMs: 30_000 });
      const after = await stack.click(card, 'remedy-approve', approver);
      expect((await stack.fake.waitFor((f) => f.responses(after.responseId)[0])).body).toEqual({
        response_type: 'ephemeral',
        replace_original: false,
        text: 'Nothing was done: this remedy\'s state was lost, and nothing more of it will run (its thread says why). Use "Plan again" there for a fresh plan.',
      });
      const denied = await stack.click(card, 'remedy-deny', requester);
      expect(String((await stack.fake.waitFor((f) => f.responses(denied.responseId)[0])).body.text)).toMatch(/^Nothing was done: this remedy's state was lost/);
      // Nothing ran, before or after: no pod deleted, no run queued, one "lost" in the thread.
      expect(deletes()).toHaveLength(deletedBefore);
      expect((await jobsOf(stack, requestIdOf(card))).filter((j) => j.name === 'run')).toEqual([]);
      expect(stack.thread(rootTs).filter((m) => /state was lost/.test(m.text) && m.ts !== card.ts)).toHaveLength(1);
    } finally {
      await stack.stop();
      await redis.stop();
    }
  }, 120_000);

  it('a wait whose continuation job vanished from the queue: after its due time the thread says the state was lost', async () => {
    // The bot looks for overdue waits every 0.5 s and gives a continuation 1 s past its due time,
    // not the production 5 s and 10 s the test would otherwise wait out.
    const stack = await startStack('lost-continuation', { env: { PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS: '1', PLATFORM_MEDIC_LOST_STATE_CHECK_SECONDS: '0.5', PLATFORM_MEDIC_LOST_STATE_GRACE_SECONDS: '1' } });
    try {
      await stack.sim.break('build-logs');
      const { rootTs, card } = await startFix(stack, 'build-logs');
      await stack.click(card, 'remedy-approve', approver);
      await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('⏳ Step 3 of 4')), { timeoutMs: 20_000 });
      // Given the delayed continuation is gone (an older snapshot restored, an operator's cleanup)…
      let continuation: string | undefined;
      for (let i = 0; i < 200 && !continuation; i++) {
        continuation = (await stack.queue.getDelayed()).find((j) => j.id?.endsWith('-s3'))?.id;
        if (!continuation) await new Promise((r) => setTimeout(r, 25));
      }
      expect(await stack.queue.remove(continuation!)).toBe(1);
      // …then, once it is overdue, the thread is told, and nothing more runs.
      const lost = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => /state was lost/.test(m.text)), { timeoutMs: 40_000 });
      expect(lost.text).toBe(
        "❌ This remedy's state was lost: the job that continues it after the wait is no longer in the queue (Redis lost it, or someone removed it). Nothing more of this remedy will run; steps already done stay done. Plan again to start this stage afresh.",
      );
      expect(hasButton(lost, 'remedy-replan')).toBe(true);
      expect(stack.thread(rootTs).some((m) => /Step 4 of 4|Are the build logs visible/.test(shown(m)))).toBe(false);
    } finally {
      await stack.stop();
    }
  }, 90_000);

  it('a plan job that vanished from the queue before a worker took it: the thread says so and the entry is free again', async () => {
    // Found by an attacker's round: the bot stopping between recording a fix and queuing its plan (or an operator's
    // cleanup) left the remedy "planning" for good, and everyone else's fix of the entry refused as "already being fixed".
    const stack = await startStack('lost-plan', { env: { PLATFORM_MEDIC_LOST_STATE_CHECK_SECONDS: '0.5', PLATFORM_MEDIC_LOST_STATE_GRACE_SECONDS: '1' } });
    try {
      await stack.sim.break('git-sensor-stuck');
      // Given no worker takes the plan, and its job is then removed from the queue…
      await stack.killWorker();
      const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
      expect((await stack.slash('fix git-sensor-stuck')).status).toBe(200);
      const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts) && m.text.includes('git-sensor-stuck')));
      let planJob: string | undefined;
      for (let i = 0; i < 200 && !planJob; i++) {
        planJob = (await stack.queue.getWaiting()).find((j) => j.id?.startsWith('plan-'))?.id;
        if (!planJob) await new Promise((r) => setTimeout(r, 25));
      }
      expect(await stack.queue.remove(planJob!)).toBe(1);
      await stack.startWorker();
      // …then the thread is told that nothing will be planned, with a way to plan afresh…
      const lost = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => /state was lost/.test(m.text)), { timeoutMs: 30_000 });
      expect(lost.text).toBe(
        "❌ This remedy's state was lost: the job that plans it is no longer in the queue (the bot stopped before queuing it, Redis lost it, or someone removed it). Nothing more of this remedy will run; steps already done stay done. Plan again to start this stage afresh.",
      );
      expect(hasButton(lost, 'remedy-replan')).toBe(true);
      // …and the entry is free: another fix of it is planned, not refused as already being fixed.
      const again = await startFix(stack, 'git-sensor-stuck');
      expect(hasButton(again.card, 'remedy-approve')).toBe(true);
    } finally {
      await stack.stop();
    }
  }, 90_000);
});
