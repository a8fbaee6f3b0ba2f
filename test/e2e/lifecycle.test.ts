import { CoreV1Api } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { approver, channel, requester, secondApprover, startStack, testRedisUrl, workerPolicy, type Stack } from '../support/stack.js';

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);
/** The plan id a card shows (`plan \`0123456789ab\``): the same objects give the same id. */
const planIdOf = (m: StoredMessage) => /plan `(\w+)`/.exec(blocksText(m.blocks))?.[1];

/**
 * Each approval attempt (a plan, or a plan made again) is decided, expires and runs on its own, even
 * when the cluster did not change and the new plan is the same as the old one; an entry is free again
 * as soon as its remedy ends, whatever ended it.
 */
describe('approval attempts, expiry and entry locks', () => {
  let stack: Stack;
  let redis: Redis;

  beforeAll(async () => {
    // Cards and the guide's questions run out after 6 s, so the tests wait on the events, not on the clock.
    stack = await startStack('lifecycle', { env: { PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES: '0.1', PLATFORM_MEDIC_DECISION_TIMEOUT_MINUTES: '0.1' } });
    redis = new Redis(testRedisUrl);
  });
  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  async function fix(entry: string, user = requester): Promise<{ rootTs: string; card: StoredMessage }> {
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    expect((await stack.slash(`fix ${entry}`, user)).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts)), { what: `the root message of ${entry}` });
    const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { what: `the card of ${entry}`, timeoutMs: 15_000 });
    return { rootTs: root.ts, card };
  }
  const inThread = (rootTs: string, test: (m: StoredMessage) => boolean, what: string, timeoutMs = 15_000) =>
    stack.fake.waitFor((f) => f.thread(channel, rootTs).find(test), { what, timeoutMs });
  const newCard = (rootTs: string, seen: readonly StoredMessage[]) =>
    inThread(rootTs, (m) => hasButton(m, 'remedy-approve') && !seen.some((s) => s.ts === m.ts), 'a new approval card');
  const deletions = () => stack.sim.requests().filter((r) => r.method === 'DELETE' && /\/pods\//.test(r.path) && r.status < 300).length;

  /** Approves a card: the approval is taken (no refusal), the stage ends, and the pod was deleted exactly once. */
  async function approvedAndRunOnce(rootTs: string, card: StoredMessage): Promise<void> {
    const before = deletions();
    const { responseId } = await stack.click(card, 'remedy-approve', approver);
    await inThread(rootTs, (m) => m.text.startsWith('✅ Stage done'), 'the end of the stage', 30_000);
    expect(stack.fake.responses(responseId)).toEqual([]);
    expect(deletions() - before).toBe(1);
  }

  /** Another person asks for the same fix: they get their own card (the entry is free), then deny it. */
  async function entryIsFree(entry: string): Promise<void> {
    const other = await fix(entry, secondApprover);
    await stack.click(other.card, 'remedy-deny', secondApprover);
    await inThread(other.rootTs, (m) => m.text.startsWith('🚫'), 'the denial');
  }

  it('a plan made again on an unchanged cluster expires on time too, and then the entry is free for anyone', async () => {
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await fix('git-sensor-stuck');
    // While the card waits, the entry's lock lasts no longer than the approval plus a margin, not a day.
    const ttl = await redis.ttl(`${stack.config.queuePrefix}:active:sim:git-sensor-stuck`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(6 + 5 * 60);
    const expired = await inThread(rootTs, (m) => m.text.startsWith('⌛'), 'the first expiry');
    await stack.click(expired, 'remedy-replan', requester);
    const fresh = await newCard(rootTs, [card]);
    // Nothing changed in the cluster: the plan made again is the same plan.
    expect(planIdOf(fresh)).toBe(planIdOf(card));
    // Nobody approves it: it expires by itself, as the first did.
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).filter((m) => m.text.startsWith('⌛')).length === 2, { what: 'the second expiry', timeoutMs: 15_000 });
    expect(blocksText(stack.thread(rootTs).find((m) => m.ts === fresh.ts)!.blocks)).toContain('expired');
    await entryIsFree('git-sensor-stuck');
  });

  it('a plan made again on an unchanged cluster after its approval expired can be approved, and runs once', async () => {
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await fix('git-sensor-stuck');
    const expired = await inThread(rootTs, (m) => m.text.startsWith('⌛'), 'the expiry');
    await stack.click(expired, 'remedy-replan', requester);
    const fresh = await newCard(rootTs, [card]);
    expect(planIdOf(fresh)).toBe(planIdOf(card));
    await approvedAndRunOnce(rootTs, fresh);
    await entryIsFree('git-sensor-stuck');
  });

  it('after a run that failed without changing anything, the entry is free, and a plan made again can be approved', async () => {
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await fix('git-sensor-stuck');
    stack.sim.setPolicy(workerPolicy({ podDeletes: false }));
    try {
      await stack.click(card, 'remedy-approve', approver);
      await inThread(rootTs, (m) => hasButton(m, 'remedy-replan'), 'the failure', 30_000);
    } finally {
      stack.sim.setPolicy(workerPolicy());
    }
    await entryIsFree('git-sensor-stuck');
    const failure = stack.thread(rootTs).find((m) => hasButton(m, 'remedy-replan'))!;
    await stack.click(failure, 'remedy-replan', requester);
    const fresh = await newCard(rootTs, [card]);
    // The failed step changed nothing: the plan is the same one that was approved before.
    expect(planIdOf(fresh)).toBe(planIdOf(card));
    await approvedAndRunOnce(rootTs, fresh);
  });

  it('after a run that found the cluster changed, the entry is free, and a plan made again can be approved', async () => {
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await fix('git-sensor-stuck');
    // Someone deletes the pod by hand between plan and approval: the run finds another pod and stops.
    await stack.sim.kubeConfig().makeApiClient(CoreV1Api).deleteNamespacedPod({ name: 'git-sensor-0', namespace: 'devtroncd' });
    await stack.sim.settle();
    await stack.click(card, 'remedy-approve', approver);
    const stopped = await inThread(rootTs, (m) => m.text.startsWith('⚠️ Stopped'), 'the stop', 30_000);
    expect(hasButton(stopped, 'remedy-replan')).toBe(true);
    await entryIsFree('git-sensor-stuck');
    await stack.click(stopped, 'remedy-replan', requester);
    const fresh = await newCard(rootTs, [card]);
    await approvedAndRunOnce(rootTs, fresh);
  });

  it('a question of the guide nobody answers in time ends the remedy with a message and frees the entry', async () => {
    await stack.sim.break('build-logs');
    const { rootTs, card } = await fix('build-logs');
    await stack.click(card, 'remedy-approve', approver);
    const question = await inThread(rootTs, (m) => hasButton(m, 'remedy-choose'), 'the question', 30_000);
    const ended = await inThread(rootTs, (m) => m.text.startsWith('⌛') && m.ts !== question.ts, 'the end of the unanswered question');
    expect(ended.text).toBe('⌛ Nobody answered "Are the build logs visible now?" within 6 s, so the remedy ends here. Ask for the fix again when you want to go on.');
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.ts === rootTs && m.text.endsWith('⌛ unanswered')), { what: 'the root marked unanswered' });
    // A late answer changes nothing and says why.
    const late = await stack.click(question, 'remedy-choose-still-failing', requester);
    const answer = await stack.fake.waitFor((f) => f.responses(late.responseId)[0]);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', text: 'Nobody answered this question in time, so the remedy ended. Ask for the fix again when you want to go on.' });
    await entryIsFree('build-logs');
  });
});
