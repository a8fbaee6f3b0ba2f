/**
 * Clicks on an approval card, as Slack posts them, signed, to Bolt's HTTP receiver: by people who may
 * not approve, copies of a click, a click after the run, and a click whose value names another remedy
 * than the card it was clicked on. Each refusal is told only to the person who clicked, the approval
 * is left as it was, and the audit trail keeps the refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '../fakes/slack-api.js';
import { blockActionsBody, postSigned } from '../support/slack-requests.js';
import { approver, bystander, channel, jobsOf, requestIdOf, requester, secondApprover, signingSecret, startFix, startStack, type Stack } from '../support/stack.js';

/** The approver of the second cluster, `other`, and of no other. */
const otherApprover = 'U0OTHERAPPROVER';
const pods = { group: '', version: 'v1', plural: 'pods' };

/** A card's button as Slack would send its click: the card's own block, action and value. */
function buttonOf(card: StoredMessage, prefix: string): { block: string; action: string; value: string } {
  const blocks = (card.blocks ?? []).filter((b) => b.type === 'actions') as unknown as { block_id: string; elements: { action_id: string; value: string }[] }[];
  for (const b of blocks) for (const e of b.elements) if (e.action_id.startsWith(prefix)) return { block: b.block_id, action: e.action_id, value: e.value };
  throw new Error(`no ${prefix} button on ${card.ts}`);
}

describe('clicks on an approval card that must not approve it, or approve it once', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack('approval-clicks', { approvers: [approver, secondApprover], extraClusters: [{ name: 'other', approvers: [otherApprover] }] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A click on `card`'s message by `user`, its button's action id and value as given (default the card's own). */
  async function click(card: StoredMessage, user: string, responseId: string, button = buttonOf(card, 'remedy-approve'), timestamp?: number) {
    const body = blockActionsBody({
      user,
      channel,
      message_ts: card.ts,
      ...(card.thread_ts ? { thread_ts: card.thread_ts } : {}),
      action_id: button.action,
      value: button.value,
      block_id: button.block,
      response_url: stack.fake.responseUrl(responseId, { channel, user, messageTs: card.ts }),
      message: { text: card.text, blocks: card.blocks },
    });
    return { body, response: await postSigned(stack.eventsUrl, body, { secret: signingSecret, ...(timestamp ? { timestamp } : {}) }) };
  }
  /** What only the person who clicked was told. */
  const toldOnly = async (responseId: string) => (await stack.fake.waitFor((f) => f.responses(responseId)[0])).body;
  const runsOf = async (requestId: string) => (await jobsOf(stack, requestId)).filter((j) => j.name === 'run');
  const refusalsOf = async (requestId: string) => (await stack.bot.coordinator.audit.latest(100)).filter((r) => r.requestId === requestId && /refused/.test(r.action)).map((r) => ({ who: r.who, action: r.action, detail: r.detail }));

  it("refuses a bystander, another cluster's approver and the requester's own approval of destructive steps, each privately and audited, and the card still waits", async () => {
    await stack.sim.break('gitops-certificate-expired');
    // The person who asked is an approver: the two-person rule is what refuses their own click.
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    expect((await stack.slash('fix gitops-certificate-expired', approver)).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts)));
    const card = structuredClone(await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => JSON.stringify(m.blocks ?? []).includes('"action_id":"remedy-approve')), { timeoutMs: 15_000 }));
    const requestId = requestIdOf(card);

    const clicks = [
      { user: bystander, told: 'Only the approvers of cluster `sim` can approve this: <@U0APPROVER>, <@U0APPROVER2>.' },
      { user: otherApprover, told: 'Only the approvers of cluster `sim` can approve this: <@U0APPROVER>, <@U0APPROVER2>.' },
      { user: approver, told: 'This plan has destructive steps: it needs an approver other than the person who asked (two-person rule).' },
    ];
    for (const { user, told } of clicks) {
      const { response } = await click(card, user, `refused-${user}`);
      expect(response.status).toBe(200);
      expect(await toldOnly(`refused-${user}`)).toEqual({ response_type: 'ephemeral', replace_original: false, text: told });
    }
    // Nothing of it was said in the thread, the card still waits, and nothing runs.
    expect(stack.thread(root.ts).filter((m) => clicks.some((c) => m.text.includes(c.told)))).toEqual([]);
    expect((await stack.bot.coordinator.store.get(requestId))?.status).toBe('awaiting-approval');
    expect(await runsOf(requestId)).toEqual([]);
    expect(await refusalsOf(requestId)).toEqual([...clicks].reverse().map(({ user, told }) => ({ who: user, action: 'approval-refused', detail: told })));

    // Another approver's click is taken.
    await click(card, secondApprover, 'second-approver');
    await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => m.text.startsWith('✅ Stage done')), { timeoutMs: 30_000 });
    expect(stack.fake.responses('second-approver')).toEqual([]);
  });

  it('runs an approval once: the same click again (signed anew, a later timestamp) and a click after the run change nothing', async () => {
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card: posted } = await startFix(stack, 'git-sensor-stuck');
    const card = structuredClone(posted);
    const requestId = requestIdOf(card);
    const deletesBefore = stack.sim.requests().filter((r) => r.method === 'DELETE').length;

    const first = await click(card, approver, 'approve-once');
    expect(first.response.status).toBe(200);
    // The same payload again, as an attacker who kept it would send it: a new signature and timestamp.
    const copy = await postSigned(stack.eventsUrl, first.body, { secret: signingSecret, timestamp: Math.floor(Date.now() / 1000) + 1 });
    expect(copy.status).toBe(200);
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.ts === rootTs && m.text.endsWith('✅ symptom cleared')), { timeoutMs: 20_000 });

    // A second approver whose Slack still shows the card clicks Approve after the run.
    await click(card, secondApprover, 'approve-late');
    expect(await toldOnly('approve-late')).toMatchObject({ response_type: 'ephemeral', text: 'Already approved by <@U0APPROVER>.' });
    expect(await runsOf(requestId)).toHaveLength(1);
    expect(stack.thread(rootTs).filter((m) => m.text.startsWith('Approved by'))).toHaveLength(1);
    expect(stack.sim.requests().filter((r) => r.method === 'DELETE')).toHaveLength(deletesBefore + 1);
    expect(stack.fake.responses('approve-once')).toEqual([]);
  });

  it('refuses a click on one card whose value names another remedy, privately and audited, and approves neither', async () => {
    await stack.sim.break('git-sensor-stuck');
    await stack.sim.break('build-logs');
    const a = await startFix(stack, 'git-sensor-stuck');
    const b = await startFix(stack, 'build-logs');
    const [cardA, cardB] = [structuredClone(a.card), structuredClone(b.card)];
    const [idA, idB] = [requestIdOf(cardA), requestIdOf(cardB)];
    const uids = stack.sim.list(pods, 'devtroncd', 'app=devtron').map((p) => p.metadata!.uid);

    // Approve clicked on card A, its value changed to card B's.
    const tampered = { ...buttonOf(cardA, 'remedy-approve'), value: buttonOf(cardB, 'remedy-approve').value };
    const { response } = await click(cardA, approver, 'tampered', tampered);
    expect(response.status).toBe(200);
    expect(await toldOnly('tampered')).toEqual({ response_type: 'ephemeral', replace_original: false, text: 'This button does not belong to the approval card it was clicked on; nothing was done.' });
    // The refusal is sent once the click was decided: by now, it has done all it would.
    expect((await stack.bot.coordinator.store.get(idB))?.status).toBe('awaiting-approval');
    expect((await stack.bot.coordinator.store.get(idA))?.status).toBe('awaiting-approval');
    expect([...(await runsOf(idA)), ...(await runsOf(idB))]).toEqual([]);
    expect(stack.sim.list(pods, 'devtroncd', 'app=devtron').map((p) => p.metadata!.uid)).toEqual(uids);
    expect(await refusalsOf(idB)).toEqual([{ who: approver, action: 'refused', detail: `a click on message ${cardA.ts}, not on this remedy's approval card (${cardB.ts})` }]);

    // Deny with the other card's value is refused the same way; each card's own buttons still work.
    await click(cardA, requester, 'tampered-deny', { ...buttonOf(cardA, 'remedy-deny'), value: buttonOf(cardB, 'remedy-deny').value });
    expect((await toldOnly('tampered-deny')).text).toBe('This button does not belong to the approval card it was clicked on; nothing was done.');
    expect((await stack.bot.coordinator.store.get(idB))?.status).toBe('awaiting-approval');
    await click(cardB, requester, 'deny-b', buttonOf(cardB, 'remedy-deny'));
    await click(cardA, requester, 'deny-a', buttonOf(cardA, 'remedy-deny'));
    for (const root of [a.rootTs, b.rootTs]) await stack.fake.waitFor((f) => f.thread(channel, root).find((m) => m.text.startsWith('🚫')));
  });
});
