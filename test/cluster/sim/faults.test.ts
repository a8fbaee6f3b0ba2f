import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { faultAnnotation, startSimulatedCluster } from '../../../src/cluster/sim/index.js';
import type { SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { fast, pods } from './support.js';

const ns = 'devtroncd';

describe('broken states and their symptoms', () => {
  let sim: SimulatedCluster;
  let core: CoreV1Api;

  beforeEach(async () => {
    sim = await startSimulatedCluster(fast);
    core = sim.kubeConfig().makeApiClient(CoreV1Api);
  });
  afterEach(async () => {
    await sim.close();
  });

  const deleteAll = async (selector: string) => {
    for (const pod of sim.list(pods, ns, selector)) await core.deleteNamespacedPod({ namespace: ns, name: pod.metadata.name });
    await sim.settle();
  };
  const deleteNamed = async (...names: string[]) => {
    for (const name of names) await core.deleteNamespacedPod({ namespace: ns, name });
    await sim.settle();
  };
  const logOf = async (selector: string) => {
    const [pod] = sim.list(pods, ns, selector);
    return core.readNamespacedPodLog({ namespace: ns, name: pod.metadata.name });
  };

  it('starts healthy', () => {
    expect(sim.symptoms()).toEqual([]);
  });

  it('sso-login: the main pod logs the two errors until it is deleted, and its replacement is clean', async () => {
    sim.break('sso-login');
    expect(sim.symptoms()).toEqual(['sso-login']);
    const [main] = sim.list(pods, ns, 'app=devtron');
    expect(main.metadata.annotations[faultAnnotation]).toBe('configuration saved but not loaded');
    const log = await logOf('app=devtron');
    expect(log).toContain('no token provided');
    expect(log).toContain('unsupported protocol scheme');

    await deleteAll('app=devtron');
    expect(sim.symptoms()).toEqual([]);
    expect(await logOf('app=devtron')).not.toContain('no token provided');
  });

  it('build-logs (watcher): restarting the main and watcher pods clears it; restarting only one does not', async () => {
    sim.break('build-logs');
    expect(sim.symptoms()).toEqual(['build-logs']);
    await deleteAll('app=devtron');
    expect(sim.symptoms()).toEqual(['build-logs']);
    await deleteAll('app=kubewatch');
    expect(sim.symptoms()).toEqual([]);
  });

  it('build-logs (broker): restarted main and watcher pods inherit the fault until the brokers are restarted', async () => {
    sim.break('build-logs', { depth: 'broker' });
    expect(sim.get(pods, ns, 'devtron-nats-0').metadata.annotations[faultAnnotation]).toBe('message broker not delivering build events');

    // The guide's first stage does not help.
    await deleteAll('app in (devtron,kubewatch)');
    expect(sim.symptoms()).toEqual(['build-logs']);
    const [main] = sim.list(pods, ns, 'app=devtron');
    expect(main.metadata.annotations[faultAnnotation]).toBe('build events not relayed');

    // Second stage: the brokers, then both labelled pods again.
    await deleteNamed('devtron-nats-0', 'devtron-stan-0');
    expect(sim.get(pods, ns, 'devtron-nats-0').metadata.annotations?.[faultAnnotation]).toBeUndefined();
    expect(sim.symptoms()).toEqual(['build-logs']);
    await deleteAll('app in (devtron,kubewatch)');
    expect(sim.symptoms()).toEqual([]);
  });

  it('git-sensor-stuck: only deleting git-sensor-0 clears it', async () => {
    sim.break('git-sensor-stuck');
    expect(sim.symptoms()).toEqual(['git-sensor-stuck']);
    expect(await core.readNamespacedPodLog({ namespace: ns, name: 'git-sensor-0' })).toContain('error in fetching latest commit');
    await deleteAll('app=devtron');
    expect(sim.symptoms()).toEqual(['git-sensor-stuck']);
    await deleteNamed('git-sensor-0');
    expect(sim.symptoms()).toEqual([]);
  });

  it('reports several broken entries at once, and heal() clears them all', async () => {
    sim.break('git-sensor-stuck');
    sim.break('sso-login');
    sim.break('build-logs', { depth: 'broker' });
    expect(sim.symptoms()).toEqual(['sso-login', 'build-logs', 'git-sensor-stuck']);
    const [main] = sim.list(pods, ns, 'app=devtron');
    expect(main.metadata.annotations[faultAnnotation]).toBe('configuration saved but not loaded; build events not relayed');
    sim.heal();
    expect(sim.symptoms()).toEqual([]);
    expect(sim.list(pods, ns).some((p) => p.metadata.annotations?.[faultAnnotation])).toBe(false);
  });

  it('refuses an entry it cannot break, naming those it can', () => {
    expect(() => sim.break('no-such-entry')).toThrow(/sso-login, build-logs, git-sensor-stuck/);
    expect(() => sim.break('build-logs', { depth: 'deep' })).toThrow(/depth/);
  });
});
