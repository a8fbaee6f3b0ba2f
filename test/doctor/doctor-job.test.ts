import { PassThrough, Writable } from 'node:stream';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig, type Config } from '../../src/config.js';
import { parseCommand } from '../../src/core/index.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { clusterQueueName } from '../../src/jobs/names.js';
import { startClusterWorker, type ClusterWorker } from '../../src/jobs/worker.js';
import { runTerminal } from '../../src/terminal/session.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';
import { fast } from './support.js';

const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));
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

async function setUp(broken?: string): Promise<{ sim: SimulatedCluster; config: Config }> {
  const sim = await startSimulatedCluster({ ...fast, hideMarkers: true });
  sims.push(sim);
  await sim.settle();
  if (broken) await sim.break(broken);
  await sim.settle();
  const config = loadConfig({
    env: {},
    overrides: { redisUrl: testRedisUrl, queuePrefix: uniquePrefix('doctor'), clusters: [{ name: 'simulated', kube: { source: 'simulated' } }], defaultCluster: 'simulated' },
  });
  prefixes.push(config.queuePrefix);
  workers.push(startClusterWorker({ config, cluster: config.clusters[0]!, kubeConfig: sim.kubeConfig(), logger: silent, pollMs: 50 }));
  return { sim, config };
}

async function session(config: Config, script: string[]): Promise<string> {
  const input = new PassThrough();
  let out = '';
  const output = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
  input.end(script.map((l) => `${l}\n`).join(''));
  await runTerminal({ config, logger: silent, input, output, user: 'terminal:alice', describeCluster: () => '' });
  return out;
}

describe('the doctor through the queue', () => {
  it('parses `doctor [cluster]`', () => {
    expect(parseCommand('doctor')).toEqual({ kind: 'doctor' });
    expect(parseCommand('doctor prod-eu')).toEqual({ kind: 'doctor', cluster: 'prod-eu' });
    expect(parseCommand('doctor a b')).toMatchObject({ kind: 'usage' });
  });

  it('answers `doctor` in the terminal from one worker job: the symptom, its evidence, the fix to type, the time', async () => {
    const { sim, config } = await setUp('gitops-certificate-expired');
    const before = sim.requests().length;
    const transcript = await session(config, ['doctor', 'doctor elsewhere']);
    expect(transcript).toContain('Doctor: 1 symptom of the guide present in simulated.');
    expect(transcript).toContain('Expired GitOps controller certificate (gitops-certificate-expired, guide 7.22) — seen in simulated');
    expect(transcript).toMatch(/secret\/devtroncd\/argocd-secret tls\.crt notAfter \S+: expired \d+d ago/);
    expect(transcript).toContain('Type "fix gitops-certificate-expired simulated".');
    expect(transcript).toMatch(/Not observable from the cluster \(a browser, a cloud console, chart values\): stale-session-cookie, /);
    // The time is in ms below a second, else in seconds ("1.2 s"): a scan under load may take longer.
    expect(transcript).toMatch(/Checked \d+ entries in (\d+ ms|\d+\.\d s), read-only\./);
    expect(transcript).toContain('There is no cluster elsewhere.');
    // Read-only: the worker only read.
    expect(sim.requests().slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('runs only the entries a job names, when it names some (a paste\'s candidates, a finished remedy\'s entry)', async () => {
    const { config } = await setUp('gitops-certificate-expired');
    const connection = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(clusterQueueName('simulated'), { connection, prefix: config.queuePrefix });
    const events = new QueueEvents(clusterQueueName('simulated'), { connection: new Redis(testRedisUrl, { maxRetriesPerRequest: null }), prefix: config.queuePrefix });
    try {
      await events.waitUntilReady();
      const job = await queue.add('doctor', { requestId: 'abe', cluster: 'simulated', requestedBy: 'U1', entries: ['gitops-certificate-expired', 'build-logs'] });
      const report = (await job.waitUntilFinished(events, 10_000)) as { findings: { id: string; state: string }[] };
      expect(report.findings.map((f) => [f.id, f.state])).toEqual([
        ['build-logs', 'absent'],
        ['gitops-certificate-expired', 'present'],
      ]);
    } finally {
      await events.close();
      await queue.close();
      connection.disconnect();
    }
  });

  it('refuses a doctor job whose data is not valid, and one meant for another cluster', async () => {
    const { config } = await setUp();
    const connection = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(clusterQueueName('simulated'), { connection, prefix: config.queuePrefix });
    const events = new QueueEvents(clusterQueueName('simulated'), { connection: new Redis(testRedisUrl, { maxRetriesPerRequest: null }), prefix: config.queuePrefix });
    try {
      await events.waitUntilReady();
      const bad = await queue.add('doctor', { cluster: 'simulated' });
      await expect(bad.waitUntilFinished(events, 10_000)).rejects.toThrow(/Doctor job \S+ has invalid data/);
      const other = await queue.add('doctor', { requestId: 'abc', cluster: 'prod', requestedBy: 'U1' });
      await expect(other.waitUntilFinished(events, 10_000)).rejects.toThrow('A doctor for cluster prod reached the worker of simulated.');
      const unknown = await queue.add('doctor', { requestId: 'abd', cluster: 'simulated', requestedBy: 'U1', entries: ['build-logs', 'no-such-entry'] });
      await expect(unknown.waitUntilFinished(events, 10_000)).rejects.toThrow('This worker does not know no-such-entry; is it older than the bot?');
    } finally {
      await events.close();
      await queue.close();
      connection.disconnect();
    }
  });
});
