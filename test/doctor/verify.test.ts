import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { findEntry } from '../../src/catalogue/index.js';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import type { SimulatedCluster } from '../../src/cluster/sim/index.js';
import { verifyEntry } from '../../src/doctor/index.js';
import { lookInterval } from '../../src/doctor/verify.js';
import { hiddenSim } from './support.js';

/**
 * The look at an entry's symptom after its remedy (issue 12 item 8), on the simulated cluster with its
 * fault annotation hidden: the detector sees only real signals. Waits between looks go through the
 * test's own `sleep`, so what happens between two looks is decided by the test, not by the clock.
 */
const sims: SimulatedCluster[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function cluster() {
  const sim = await hiddenSim();
  sims.push(sim);
  return { sim, gateway: new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 5_000 }) };
}

const gitSensorStuck = findEntry('git-sensor-stuck')!;

describe('verifyEntry', () => {
  it('says what the detector saw and where it looked, in the cluster\'s own names', async () => {
    const { sim, gateway } = await cluster();
    await sim.break('git-sensor-stuck');
    await sim.settle();
    const v = await verifyEntry(gateway, sim.names, gitSensorStuck, { settleMs: 0 });
    expect(v.finding.state).toBe('present');
    expect(v.finding.evidence[0]?.object).toBe('pod/devtroncd/git-sensor-0');
    expect(v.looks).toBe(1);
    expect(v.looked).toEqual([expect.stringMatching(/^the last \d+ log lines of pod git-sensor-0 in devtroncd$/)]);
  });

  it('looks again while the symptom is present, and reports it cleared once the cluster shows it gone', async () => {
    const { sim, gateway } = await cluster();
    await sim.break('git-sensor-stuck');
    await sim.settle();
    let waits = 0;
    // Between the first and the second look, the pod is replaced (as the remedy's restart does, late).
    const sleep = async () => {
      waits += 1;
      if (waits === 1) {
        await sim.kubeConfig().makeApiClient(CoreV1Api).deleteNamespacedPod({ name: 'git-sensor-0', namespace: 'devtroncd' });
        await sim.settle();
      }
    };
    const v = await verifyEntry(gateway, sim.names, gitSensorStuck, { settleMs: 60_000, intervalMs: 10, sleep });
    expect(v.finding).toMatchObject({ id: 'git-sensor-stuck', state: 'absent' });
    expect(v.looks).toBe(2);
    expect(waits).toBe(1);
  });

  it('gives up after the settle window while the symptom stays, with its evidence', async () => {
    const { sim, gateway } = await cluster();
    await sim.break('git-sensor-stuck');
    await sim.settle();
    const v = await verifyEntry(gateway, sim.names, gitSensorStuck, { settleMs: 300, intervalMs: 100 });
    expect(v.finding.state).toBe('present');
    expect(v.finding.evidence.length).toBeGreaterThan(0);
    expect(v.looks).toBeGreaterThan(1);
  });

  it('stops looking again once the remedy is cancelled', async () => {
    const { sim, gateway } = await cluster();
    await sim.break('git-sensor-stuck');
    await sim.settle();
    let waits = 0;
    const v = await verifyEntry(gateway, sim.names, gitSensorStuck, { settleMs: 60_000, intervalMs: 10, sleep: async () => void (waits += 1), stop: async () => true });
    expect(v).toMatchObject({ looks: 1, finding: { state: 'present' } });
    expect(waits).toBe(0);
  });

  it('looks once where the cluster cannot show the symptom, or cannot be read', async () => {
    const { sim, gateway } = await cluster();
    const never = async () => {
      throw new Error('no second look expected');
    };
    const cookie = await verifyEntry(gateway, sim.names, findEntry('stale-session-cookie')!, { settleMs: 60_000, sleep: never });
    expect(cookie).toMatchObject({ looks: 1, looked: [], finding: { state: 'not-observable' } });
    expect(cookie.finding.message).toBeTruthy();

    sim.setPolicy({ subject: 'system:serviceaccount:devtroncd:platform-medic-worker', clusterRules: [], namespaceRules: {} });
    const forbidden = await verifyEntry(gateway, sim.names, gitSensorStuck, { settleMs: 60_000, sleep: never });
    expect(forbidden).toMatchObject({ looks: 1, finding: { state: 'unknown', reason: 'forbidden' } });
  });

  it('spaces its looks over the window: a few, never more often than every 0.2 s, never less than every 5 s', () => {
    expect(lookInterval(0)).toBe(200);
    expect(lookInterval(1_000)).toBe(200);
    expect(lookInterval(10_000)).toBe(2_000);
    expect(lookInterval(600_000)).toBe(5_000);
  });
});

describe('where a verification looked, in words', () => {
  it("names every kind of read, the dashboard's and the database's included", async () => {
    const { describeRead } = await import('../../src/doctor/verify.js');
    const { defaultPlatformNames } = await import('../../src/platform-names.js');
    expect(describeRead({ dashboard: 'organisations' }, defaultPlatformNames)).toBe("the metrics dashboard's organisations");
    expect(describeRead({ dashboard: 'dataSources' }, defaultPlatformNames)).toBe("the metrics dashboard's data sources");
    expect(describeRead({ dashboard: 'model', uid: 'cpu' }, defaultPlatformNames)).toBe('the panels of dashboard cpu');
    expect(describeRead({ database: 'sessions' }, defaultPlatformNames)).toBe("the platform database's open sessions (pg_stat_activity)");
    expect(describeRead({ list: 'jobs', in: 'platformNamespace' }, defaultPlatformNames)).toBe('jobs in devtroncd');
  });
});
