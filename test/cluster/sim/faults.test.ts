import { describe, expect, it } from 'vitest';
import { faultAnnotation } from '../../../src/cluster/sim/index.js';
import { freshSimulator, pods } from './support.js';

const ns = 'devtroncd';

describe('broken states and their symptoms', () => {
  const env = freshSimulator();

  const deleteAll = async (selector: string) => {
    for (const pod of env.sim.list(pods, ns, selector)) await env.core.deleteNamespacedPod({ namespace: ns, name: pod.metadata.name });
    await env.sim.settle();
  };
  const deleteNamed = async (...names: string[]) => {
    for (const name of names) await env.core.deleteNamespacedPod({ namespace: ns, name });
    await env.sim.settle();
  };
  const logOf = async (selector: string) => {
    const [pod] = env.sim.list(pods, ns, selector);
    return env.core.readNamespacedPodLog({ namespace: ns, name: pod.metadata.name });
  };

  it('starts healthy', () => {
    expect(env.sim.symptoms()).toEqual([]);
  });

  it('sso-login: the main pod logs the two errors until it is deleted, and its replacement is clean', async () => {
    await env.sim.break('sso-login');
    expect(env.sim.symptoms()).toEqual(['sso-login']);
    const [main] = env.sim.list(pods, ns, 'app=devtron');
    expect(main.metadata.annotations[faultAnnotation]).toBe('configuration saved but not loaded');
    const log = await logOf('app=devtron');
    expect(log).toContain('no token provided');
    expect(log).toContain('unsupported protocol scheme');

    await deleteAll('app=devtron');
    expect(env.sim.symptoms()).toEqual([]);
    expect(await logOf('app=devtron')).not.toContain('no token provided');
  });

  it('build-logs (watcher): restarting the main and watcher pods clears it; restarting only one does not', async () => {
    await env.sim.break('build-logs');
    expect(env.sim.symptoms()).toEqual(['build-logs']);
    await deleteAll('app=devtron');
    expect(env.sim.symptoms()).toEqual(['build-logs']);
    await deleteAll('app=kubewatch');
    expect(env.sim.symptoms()).toEqual([]);
  });

  it('build-logs (broker): restarted main and watcher pods inherit the fault until the brokers are restarted', async () => {
    await env.sim.break('build-logs', { depth: 'broker' });
    expect(env.sim.get(pods, ns, 'devtron-nats-0').metadata.annotations[faultAnnotation]).toBe('message broker not delivering build events');

    // The guide's first stage does not help.
    await deleteAll('app in (devtron,kubewatch)');
    expect(env.sim.symptoms()).toEqual(['build-logs']);
    const [main] = env.sim.list(pods, ns, 'app=devtron');
    expect(main.metadata.annotations[faultAnnotation]).toBe('build events not relayed');

    // Second stage: the brokers, then both labelled pods again.
    await deleteNamed('devtron-nats-0', 'devtron-stan-0');
    expect(env.sim.get(pods, ns, 'devtron-nats-0').metadata.annotations?.[faultAnnotation]).toBeUndefined();
    expect(env.sim.symptoms()).toEqual(['build-logs']);
    await deleteAll('app in (devtron,kubewatch)');
    expect(env.sim.symptoms()).toEqual([]);
  });

  it('git-sensor-stuck: only deleting git-sensor-0 clears it', async () => {
    await env.sim.break('git-sensor-stuck');
    expect(env.sim.symptoms()).toEqual(['git-sensor-stuck']);
    // As the real git-sensor shows it: its polls still start every 2 minutes, none ends (a fetch hangs holding the lock).
    const tail = (await env.core.readNamespacedPodLog({ namespace: ns, name: 'git-sensor-0', tailLines: 10 })).trim().split('\n');
    expect(tail.every((line) => line.includes('"msg":"starting git watch thread"'))).toBe(true);
    await deleteAll('app=devtron');
    expect(env.sim.symptoms()).toEqual(['git-sensor-stuck']);
    await deleteNamed('git-sensor-0');
    expect(env.sim.symptoms()).toEqual([]);
  });

  it('reports several broken entries at once, and heal() clears them all', async () => {
    await env.sim.break('git-sensor-stuck');
    await env.sim.break('sso-login');
    await env.sim.break('build-logs', { depth: 'broker' });
    expect(env.sim.symptoms()).toEqual(['sso-login', 'build-logs', 'git-sensor-stuck']);
    const [main] = env.sim.list(pods, ns, 'app=devtron');
    expect(main.metadata.annotations[faultAnnotation]).toBe('configuration saved but not loaded; build events not relayed');
    env.sim.heal();
    expect(env.sim.symptoms()).toEqual([]);
    expect(env.sim.list(pods, ns).some((p) => p.metadata.annotations?.[faultAnnotation])).toBe(false);
  });

  it('refuses an entry it cannot break, naming those it can', () => {
    expect(() => env.sim.break('no-such-entry')).toThrow(/sso-login, build-logs, git-sensor-stuck/);
    expect(() => env.sim.break('build-logs', { depth: 'deep' })).toThrow(/depth/);
  });
});
