import { afterEach, describe, expect, it } from 'vitest';
import { faultEntries, localDatabase, startSimulatedCluster } from '../../../src/cluster/sim/index.js';
import type { SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { fast } from './support.js';

const sims: SimulatedCluster[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

describe('broken states of the guide entries', () => {
  it('each entry, broken alone, shows its own symptom and only that one; heal forgets it', async () => {
    for (const { entryId } of faultEntries) {
      // Entry 16's broken state is a real database with a session open on it: the local PostgreSQL.
      const sim = await startSimulatedCluster({ ...fast, platformVersion: entryId === 'admin-password-reset-legacy' ? 'v0.6.4' : 'v0.6.29', database: localDatabase });
      sims.push(sim);
      expect(sim.symptoms(), entryId).toEqual([]);
      await sim.break(entryId);
      expect(sim.symptoms(), entryId).toEqual([entryId]);
      sim.heal();
      expect(sim.symptoms(), entryId).toEqual([]);
    }
  });

  it('seeds a real, valid GitOps server certificate and the current rollout CRD', async () => {
    const sim = await startSimulatedCluster(fast);
    sims.push(sim);
    const { X509Certificate } = await import('node:crypto');
    const crt = sim.get({ group: '', version: 'v1', plural: 'secrets' }, 'devtroncd', 'argocd-secret').data['tls.crt'];
    expect(Date.parse(new X509Certificate(Buffer.from(crt, 'base64')).validTo)).toBeGreaterThan(Date.now());
    expect(sim.get({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' }, undefined, 'rollouts.argoproj.io')).toBeDefined();
  });
});
