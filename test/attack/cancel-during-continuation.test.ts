import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '../fakes/slack-api.js';
import { approver, eventually, jobsOf, requestIdOf, requester, startFix, startStack, type Stack } from '../support/stack.js';

type Pod = { metadata: { deletionTimestamp?: string } };
const pods = { group: '', version: 'v1', plural: 'pods' };
const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);

/**
 * Cancel pressed while the steps after one of the guide's waits are running (the card offers Cancel the whole
 * time). The remedy's state still said "waiting", and nothing queued was left to remove, so the cancel took the
 * running step for nothing at all: the thread said "nothing else will run", the entry and the objects were freed
 * while the step was deleting a pod, and then the step's result and "Stage done" followed the cancellation.
 */
describe('Cancel while the steps after a wait run', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('cancel-continuation', {
      // Replacements take 2 s to be Ready, so the step that deletes the main pod is still running when Cancel is pressed.
      readyDelayMs: 2_000,
      env: { PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS: '1' },
    });
  }, 60_000);
  afterAll(async () => {
    stack?.sim.holdTermination(false);
    await stack?.stop();
  });

  it('says the running step finishes first, and the thread never goes on after saying the remedy was cancelled', async () => {
    await stack.sim.break('gitops-certificate-expired');
    const { rootTs, card } = await startFix(stack, 'gitops-certificate-expired');
    const id = requestIdOf(card);
    await stack.click(card, 'remedy-approve', approver);
    await stack.fake.waitFor(() => stack.thread(rootTs).find((m) => m.text.startsWith('⏳')), { what: 'the wait', timeoutMs: 20_000 });
    // The pod the step after the wait deletes stays Terminating: that step is under way until it is let go.
    stack.sim.holdTermination(true);
    // Under load the job of the wait itself can still read active here; the main pod Terminating is the step after
    // the wait under way, whatever the machine's speed.
    await eventually(async () => (await jobsOf(stack, id, ['active'])).length === 1, { what: 'the steps after the wait running', timeoutMs: 20_000 });
    await eventually(
      async () => stack.sim.list<Pod>(pods, 'devtroncd', 'app=devtron').some((p) => p.metadata.deletionTimestamp !== undefined),
      { what: 'the main pod Terminating', timeoutMs: 20_000 },
    );
    const current = stack.thread(rootTs).find((m) => m.ts === card.ts)!;
    expect(hasButton(current, 'remedy-cancel')).toBe(true);
    const { responseId } = await stack.click(current, 'remedy-cancel', requester);
    const told = await stack.fake.waitFor((f) => f.responses(responseId)[0], { what: 'the answer to Cancel', timeoutMs: 15_000 }).catch(() => undefined);
    const cancelledEarly = stack.thread(rootTs).some((m) => m.text.startsWith('🛑 Cancelled'));
    stack.sim.holdTermination(false);
    await eventually(async () => (await jobsOf(stack, id, ['active', 'waiting', 'delayed'])).length === 0, { what: 'the run over', timeoutMs: 60_000 });
    await eventually(async () => !['waiting', 'running'].includes((await stack.bot.coordinator.store.get(id))?.status ?? ''), { what: 'the remedy ended', timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 500));

    const said = stack.thread(rootTs).map((m) => m.text);
    expect(cancelledEarly, JSON.stringify(said)).toBe(false);
    expect((told?.body as { text?: string } | undefined)?.text).toBe('Cancelling: the running step finishes, then the remedy stops.');
    const at = said.findIndex((t) => t.startsWith('🛑 Cancelled'));
    if (at >= 0) expect(said.slice(at + 1), JSON.stringify(said)).toEqual([]);
  }, 120_000);
});
