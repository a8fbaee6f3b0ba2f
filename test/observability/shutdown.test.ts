import { describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { approver, channel, startStack, type Stack } from '../support/stack.js';

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);

/** Successful pod deletions the simulated cluster served, by pod name. */
function deletions(stack: Stack): string[] {
  return stack.sim.requests().filter((r) => r.method === 'DELETE' && /\/pods\//.test(r.path) && r.status < 300).map((r) => r.path.split('/').pop()!);
}

/** Starts git-sensor-stuck's restart, approves it, and resolves once its pod is deleted: the step is now verifying. */
async function midStep(stack: Stack): Promise<string> {
  await stack.sim.break('git-sensor-stuck');
  expect((await stack.slash('fix git-sensor-stuck')).status).toBe(200);
  const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && m.text.includes('git-sensor-stuck')));
  const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { timeoutMs: 15_000 });
  await stack.click(card, 'remedy-approve', approver);
  // The fake Slack's waitFor wakes on Slack traffic only; the cluster is polled.
  for (const end = Date.now() + 15_000; deletions(stack).length === 0; ) {
    if (Date.now() > end) throw new Error('the pod was never deleted');
    await new Promise((r) => setTimeout(r, 25));
  }
  return root.ts;
}

const stageDone = (stack: Stack, rootTs: string) =>
  stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => /Stage done: every step finished/.test(m.text) || /Stage done: every step finished/.test(blocksText(m.blocks))), { timeoutMs: 30_000 });

describe('graceful shutdown of a worker (SIGTERM, as the kubelet sends it)', () => {
  it('lets the running step finish within the bound, then exits 0', async () => {
    // The replacement pod takes 2.5 s to appear: the step verifies that long after the delete.
    const stack = await startStack('sigterm-finish', { recreateDelayMs: 2500, readyDelayMs: 200, env: { PLATFORM_MEDIC_SHUTDOWN_SECONDS: '8' } });
    try {
      const rootTs = await midStep(stack);
      const { code, ms } = await stack.terminateWorker();
      console.log(`SIGTERM mid-step → exit ${code} after ${ms} ms (bound 8 s; the step finished first)`);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(8_000);
      // The step finished in the terminated worker: its result is in the thread without any other worker.
      await stageDone(stack, rootTs);
      expect(stack.workerLog()).not.toContain('releasing it to another worker');
      expect(deletions(stack)).toEqual(['git-sensor-0']);
    } finally {
      await stack.stop();
    }
  });

  it('past the bound, releases the step: the process exits in time and the next worker resumes it, deleting nothing twice', async () => {
    const stack = await startStack('sigterm-release', {
      recreateDelayMs: 6000,
      readyDelayMs: 200,
      env: { PLATFORM_MEDIC_SHUTDOWN_SECONDS: '2', PLATFORM_MEDIC_SHUTDOWN_DRAIN_SECONDS: '0', PLATFORM_MEDIC_WORKER_LOCK_SECONDS: '2' },
    });
    try {
      const rootTs = await midStep(stack);
      const { code, ms } = await stack.terminateWorker();
      console.log(`SIGTERM mid-step → exit ${code} after ${ms} ms (bound 2 s; the step was released)`);
      expect(code).toBe(0);
      // Released at the 2 s bound (the log line below says the step was released, not finished); the margin is the machine's load.
      expect(ms).toBeLessThan(5_000);
      expect(stack.workerLog()).toContain('releasing it to another worker');
      await stack.startWorker();
      await stageDone(stack, rootTs);
      expect(deletions(stack)).toEqual(['git-sensor-0']);
    } finally {
      await stack.stop();
    }
  });
});
