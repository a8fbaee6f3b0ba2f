import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { pipedSessions } from '../support/terminal-session.js';

/**
 * The terminal demo, which has no internet: entries 1 and 2 plan and run from the manifests bundled
 * with platform-medic. Before, `fix install-jobs-failed` ended with "⛔ Cannot plan the manifest:
 * cannot fetch https://raw.githubusercontent.com/…/migrator.yaml (ENOTFOUND)".
 */

const sessions = pipedSessions('terminal-manifests', { forceClose: true });
afterEach(() => sessions.cleanup());

async function demo(broken: string, script: string[]): Promise<{ sim: SimulatedCluster; transcript: string }> {
  const sim = sessions.own(await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 }));
  await sim.break(broken);
  return { sim, transcript: await sessions.run(sim, script) };
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
