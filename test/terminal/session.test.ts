import { PassThrough, Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig } from '../../src/config.js';
import { startClusterWorker, type ClusterWorker } from '../../src/jobs/worker.js';
import { runTerminal, stripControl } from '../../src/terminal/session.js';
import { testRedisUrl, uniquePrefix } from '../support/stack.js';

const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));

/** Runs a terminal session fed with `script` (piped, as `printf … | npm start` would) and returns its transcript. */
async function session(sim: SimulatedCluster, script: string[]): Promise<string> {
  const config = loadConfig({
    env: {},
    overrides: { redisUrl: testRedisUrl, queuePrefix: uniquePrefix('terminal'), clusters: [{ name: 'simulated', kube: { source: 'simulated' } }], defaultCluster: 'simulated', waitOverrideSeconds: 0.2 },
  });
  prefixes.push(config.queuePrefix);
  workers.push(startClusterWorker({ config, cluster: config.clusters[0]!, kubeConfig: sim.kubeConfig(), logger: silent, pollMs: 50 }));
  const input = new PassThrough();
  let out = '';
  const output = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
  input.end(script.map((l) => `${l}\n`).join(''));
  await runTerminal({ config, logger: silent, input, output, user: 'terminal:alice', describeCluster: () => `symptoms: ${sim.symptoms().join(', ') || 'none'}` });
  return out;
}

const workers: ClusterWorker[] = [];
const prefixes: string[] = [];
const sims: SimulatedCluster[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  const redis = new Redis(testRedisUrl);
  for (const p of prefixes.splice(0)) await deletePrefix(redis, p);
  redis.disconnect();
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

describe('the terminal adapter', () => {
  it('takes the same commands, asks for approval by prompt, and repairs build logs in the simulated cluster', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sims.push(sim);
    await sim.break('build-logs');
    const transcript = await session(sim, ['list', 'fix build-log', 'fix build-logs', 'a', '1', 'cluster']);

    expect(transcript).toContain('build-logs (guide 7.4) — Build logs not visible and build cannot be aborted');
    expect(transcript).toContain('There is no remedy build-log in the catalogue. Closest: build-logs');
    expect(transcript).toContain('== Approve: Restart the main platform pods and the build-event watcher ==');
    expect(transcript).toMatch(/Approve this plan\? \[a\]pprove \/ \[d\]eny > a/);
    expect(transcript).toContain('Approved by terminal:alice; running.');
    expect(transcript).toContain('✅ Step 2 of 4: Deleted 2 pod(s); replacements are Ready with new uids.');
    expect(transcript).toContain('⏳ Step 3 of 4: Waiting 0.2 s');
    expect(transcript).toMatch(/Are the build logs visible now\? \[1\] Logs visible \/ \[2\] Still failing > 1/);
    expect(transcript).toContain('🎉 Resolved: Build logs are visible again.');
    expect(transcript).toContain('symptoms: none');
    expect(sim.symptoms()).toEqual([]);
  });

  it('still takes commands while a question waits, and keeps the question', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sims.push(sim);
    const transcript = await session(sim, ['fix git-sensor-stuck', 'cluster', 'explain 7.10', 'a']);
    expect(transcript).toMatch(/symptoms: none\n\(still waiting\) \[git-sensor-stuck r\w+\] Approve this plan\?/);
    expect(transcript).toContain('== Latest commit not fetched; auto build not triggered ==');
    expect(transcript).toContain('✅ Step 1 of 2: Deleted 1 pod(s); replacements are Ready with new uids.');
  });

  it('lets a second person approve destructive steps by name, never the operator alone', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sims.push(sim);
    await sim.break('gitops-certificate-expired');
    const transcript = await session(sim, ['fix gitops-certificate-expired', 'alice', 'bob']);
    expect(transcript).toContain('Destructive steps need a second person: the second approver types their name to approve, or d to deny > alice');
    expect(transcript).toContain('That name is not a second person. The second approver types their own name.');
    expect(transcript).toContain('Approved by terminal:bob; running.');
    expect(transcript).toContain('Stage done: every step finished.');
    expect(sim.symptoms()).toEqual([]);
  });

  it('cancels a remedy of the session with `cancel`', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sims.push(sim);
    const transcript = await session(sim, ['fix git-sensor-stuck', 'cancel']);
    expect(transcript).toMatch(/🛑 Cancelled by terminal:alice\. Steps already done stay done; nothing else will run\./);
    expect(sim.requests().filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('removes terminal control sequences from what it prints', () => {
    expect(stripControl('fix \u001b[2Jboom\u001b]0;pwned\u0007 ok\u0000')).toBe('fix boom ok');
    expect(stripControl('two\nlines\tand a tab')).toBe('two\nlines\tand a tab');
  });

  it('does nothing when the plan is denied', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sims.push(sim);
    await sim.break('git-sensor-stuck');
    const uid = sim.get({ group: '', version: 'v1', plural: 'pods' }, 'devtroncd', 'git-sensor-0')?.metadata?.uid;
    const transcript = await session(sim, ['fix git-sensor-stuck', 'maybe', 'd']);
    expect(transcript).toContain('Please answer one of: a (approve), d (deny).');
    expect(transcript).toContain('Denied by terminal:alice; nothing was done.');
    expect(sim.get({ group: '', version: 'v1', plural: 'pods' }, 'devtroncd', 'git-sensor-0')?.metadata?.uid).toBe(uid);
    expect(sim.symptoms()).toEqual(['git-sensor-stuck']);
  });
});
