import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { approver, channel, eventually, jobsOf, requestIdOf, secondApprover, startFix, startStack, type Stack } from '../support/stack.js';

const pods = { group: '', version: 'v1', plural: 'pods' };

/** Figures the suite prints at the end: what the faults did to how often steps ran. */
const figures = { trials: 0, destructiveExecutions: 0, expectedExecutions: 0, endedWithoutMessage: 0 };

/** Successful pod deletions the simulated cluster served, by pod name. */
function deletions(stack: Stack): string[] {
  return stack.sim.requests().filter((r) => r.method === 'DELETE' && /\/pods\//.test(r.path) && r.status < 300).map((r) => r.path.split('/').pop()!);
}

/** Waits for the remedy to end in its thread; counts it when it ends without a message. */
async function ending(stack: Stack, rootTs: string, pattern: RegExp, timeoutMs = 30_000): Promise<StoredMessage> {
  try {
    return await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => pattern.test(m.text) || pattern.test(blocksText(m.blocks))), { timeoutMs });
  } catch (err) {
    figures.endedWithoutMessage += 1;
    throw err;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

afterAll(() => {
  // The figures a person reads in the test output.
  console.log(
    `fault trials: ${figures.trials}, destructive step executions: ${figures.destructiveExecutions} (expected ${figures.expectedExecutions}), remedies that ended without a message: ${figures.endedWithoutMessage}`,
  );
  // Over every trial that ran, whatever their order: each remedy ended with a message, and each
  // destructive step ran exactly once.
  expect(figures.endedWithoutMessage).toBe(0);
  expect(figures.destructiveExecutions).toBe(figures.expectedExecutions);
});

describe('exactly once, under faults', () => {
  it('a worker killed with SIGKILL in the middle of a step: the next worker resumes, the pod is deleted once', async () => {
    // Slow controllers keep the step in its verification long enough to kill the worker inside it.
    const stack = await startStack('sigkill', { recreateDelayMs: 2500, readyDelayMs: 200, env: { PLATFORM_MEDIC_WORKER_LOCK_SECONDS: '2' } });
    try {
      for (let trial = 0; trial < 2; trial++) {
        figures.trials += 1;
        await stack.sim.break('git-sensor-stuck');
        const planned = stack.sim.get(pods, 'devtroncd', 'git-sensor-0')!.metadata!.uid!;
        const before = deletions(stack).length;
        const { rootTs, card } = await startFix(stack, 'git-sensor-stuck');
        await stack.click(card, 'remedy-approve', approver);
        // The delete is served, the worker is now verifying the replacement: kill it there.
        await stack.fake.waitFor(() => (deletions(stack).length > before ? true : undefined), { timeoutMs: 15_000 });
        await stack.killWorker();
        await stack.startWorker();
        await ending(stack, rootTs, /Stage done: every step finished/);
        const after = deletions(stack).slice(before);
        figures.destructiveExecutions += after.length;
        figures.expectedExecutions += 1;
        expect(after).toEqual(['git-sensor-0']);
        expect(stack.sim.get(pods, 'devtroncd', 'git-sensor-0')!.metadata!.uid).not.toBe(planned);
        expect(stack.sim.symptoms()).not.toContain('git-sensor-stuck');
        // The thread tells what the second worker found.
        expect(stack.thread(rootTs).map((m) => m.text).join('\n')).toMatch(/already gone|Deleted 1 pod/);
      }
    } finally {
      await stack.stop();
    }
  }, 90_000); // worker starts and lock expiries: headroom on a busy machine, not a time bar

  it('Redis restarted with its data in the middle of a wait: the remedy continues and each step ran once', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'medic-redis-'));
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''];
    const start = async (): Promise<ChildProcess> => {
      const child = spawn('redis-server', args, { stdio: 'ignore' });
      for (let i = 0; i < 50; i++) {
        const probe = new Redis({ port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          await probe.ping();
          probe.disconnect();
          return child;
        } catch {
          probe.disconnect();
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      throw new Error('redis-server did not start');
    };
    let redis = await start();
    const stack = await startStack('redis-restart', { redisUrl: `redis://127.0.0.1:${port}`, env: { PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS: '4' } });
    try {
      figures.trials += 1;
      await stack.sim.break('build-logs');
      const before = deletions(stack).length;
      const { rootTs, card } = await startFix(stack, 'build-logs');
      await stack.click(card, 'remedy-approve', approver);
      await ending(stack, rootTs, /⏳ Step 3 of 4: Waiting 4 s/);
      // The thread says "Waiting" as the step starts; the continuation is written just after. Restart once it is in Redis.
      await eventually(async () => (await jobsOf(stack, requestIdOf(card), ['delayed'])).length > 0, { what: 'the delayed continuation' });
      // The delayed continuation lives in Redis only: stop Redis (it writes its append-only file) and start it again.
      const stopped = new Promise((r) => redis.once('exit', r));
      const admin = new Redis({ port });
      admin.on('error', () => undefined);
      await admin.shutdown('SAVE').catch(() => undefined);
      admin.disconnect();
      await stopped;
      await new Promise((r) => setTimeout(r, 500));
      redis = await start();
      const question = await ending(stack, rootTs, /Are the build logs visible now\?/, 40_000);
      // The person is asked the guide's question with its answers, and the thread tells the stage once.
      expect(JSON.stringify(question.blocks ?? [])).toContain('"action_id":"remedy-choose');
      const texts = stack.thread(rootTs).map((m) => m.text);
      expect(texts.filter((t) => t.startsWith('👉 Step 4 of 4'))).toHaveLength(1);
      const after = deletions(stack).slice(before);
      figures.destructiveExecutions += after.length;
      figures.expectedExecutions += 2;
      expect(after).toHaveLength(2);
      expect(stack.sim.symptoms()).not.toContain('build-logs');
    } finally {
      await stack.stop();
      redis.kill('SIGTERM');
    }
  }, 90_000); // worker starts and lock expiries: headroom on a busy machine, not a time bar

  it('two bot replicas receive the same click: one run, and each event reported once', async () => {
    const stack = await startStack('replicas');
    try {
      figures.trials += 1;
      const second = await stack.startSecondBot();
      await stack.sim.break('git-sensor-stuck');
      const before = deletions(stack).length;
      const { rootTs, card } = await startFix(stack, 'git-sensor-stuck');
      const [a, b] = await Promise.all([stack.click(card, 'remedy-approve', approver), stack.click(card, 'remedy-approve', secondApprover, { url: second })]);
      expect([a.response.status, b.response.status]).toEqual([200, 200]);
      // The click that lost is told so: both clicks are decided, and only one approved.
      const lost = await stack.fake.waitFor((f) => [a, b].map((x) => f.responses(x.responseId)[0]).find(Boolean));
      expect(String(lost.body.text)).toMatch(/^Already approved by <@U0APPROVER2?>\./);
      await ending(stack, rootTs, /Stage done: every step finished/);
      // Both replicas read each queue event; a replica that skips one leaves no trace to wait on, so the
      // other has a moment to post a duplicate of the stage's end before the thread is counted.
      await new Promise((r) => setTimeout(r, 500));
      const after = deletions(stack).slice(before);
      figures.destructiveExecutions += after.length;
      figures.expectedExecutions += 1;
      expect(after).toEqual(['git-sensor-0']);
      const texts = stack.thread(rootTs).map((m) => m.text);
      expect(texts.filter((t) => t.startsWith('✅ Step 1 of 2'))).toHaveLength(1);
      expect(texts.filter((t) => t.startsWith('✅ Stage done'))).toHaveLength(1);
    } finally {
      await stack.stop();
    }
  }, 90_000); // worker starts and lock expiries: headroom on a busy machine, not a time bar
});
