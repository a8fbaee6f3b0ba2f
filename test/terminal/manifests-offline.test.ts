import { PassThrough, Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig } from '../../src/config.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { startClusterWorker, type ClusterWorker } from '../../src/jobs/worker.js';
import { runTerminal } from '../../src/terminal/session.js';
import { testRedisUrl, uniquePrefix } from '../support/stack.js';

/**
 * The terminal demo, which has no internet: entries 1 and 2 plan and run from the manifests bundled
 * with platform-medic. Before, `fix install-jobs-failed` ended with "⛔ Cannot plan the manifest:
 * cannot fetch https://raw.githubusercontent.com/…/migrator.yaml (ENOTFOUND)".
 */

const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));
const workers: ClusterWorker[] = [];
const prefixes: string[] = [];
const sims: SimulatedCluster[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close(true)));
  const redis = new Redis(testRedisUrl);
  for (const p of prefixes.splice(0)) await deletePrefix(redis, p);
  redis.disconnect();
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function demo(broken: string, script: string[]): Promise<{ sim: SimulatedCluster; transcript: string }> {
  const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
  sims.push(sim);
  await sim.break(broken);
  const config = loadConfig({
    env: {},
    overrides: { redisUrl: testRedisUrl, queuePrefix: uniquePrefix('terminal-manifests'), clusters: [{ name: 'simulated', kube: { source: 'simulated' } }], defaultCluster: 'simulated', waitOverrideSeconds: 0.2 },
  });
  prefixes.push(config.queuePrefix);
  workers.push(startClusterWorker({ config, cluster: config.clusters[0]!, kubeConfig: sim.kubeConfig(), logger: silent, pollMs: 50 }));
  const input = new PassThrough();
  let out = '';
  const output = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
  input.end(script.map((l) => `${l}\n`).join(''));
  await runTerminal({ config, logger: silent, input, output, user: 'terminal:alice', describeCluster: () => `symptoms: ${sim.symptoms().join(', ') || 'none'}` });
  return { sim, transcript: out };
}

describe('the terminal demo, offline', () => {
  it('fix install-jobs-failed plans from the bundled migrator of v0.6.29 and runs; the failed job completes', async () => {
    const { sim, transcript } = await demo('install-jobs-failed', ['fix install-jobs-failed', 'bob', 'cluster']);
    expect(transcript).not.toContain('Cannot plan the manifest');
    expect(transcript).toMatch(/manifest migrator\.yaml for platform v0\.6\.29: bundled with platform-medic \(v0\.6\.29\/migrator\.yaml\), from https:\/\/raw\.githubusercontent\.com\/devtron-labs\/devtron\/[0-9a-f]{40}\/manifests\/yamls\/migrator\.yaml .*sha256 af05cdb51e06/);
    expect(transcript).toContain('Approved by terminal:bob; running.');
    expect(transcript).toContain('symptoms: none');
    expect(sim.symptoms()).toEqual([]);
  });

  it('fix rollout-crds-outdated plans from the bundled rollout manifest and runs; the CRD is current again', async () => {
    const { sim, transcript } = await demo('rollout-crds-outdated', ['fix rollout-crds-outdated', 'bob', 'cluster']);
    expect(transcript).not.toContain('Cannot plan the manifest');
    expect(transcript).toContain('bundled with platform-medic (v0.6.2/rollout.yaml)');
    expect(transcript).toContain('Approved by terminal:bob; running.');
    expect(transcript).toContain('symptoms: none');
    expect(sim.symptoms()).toEqual([]);
  });
});
