import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { deployments, isReady, pods } from './support.js';

const ns = 'devtroncd';

/**
 * A pod on a node is deleted gracefully: the API server sets deletionTimestamp and
 * deletionGracePeriodSeconds (the request's gracePeriodSeconds, else the pod's
 * terminationGracePeriodSeconds, 30 by default; 0 for a finished pod) and the pod lingers Terminating
 * until its kubelet removes it (pkg/registry/core/pod/strategy.go, CheckGracefulDelete;
 * k8s.io/apiserver/pkg/registry/rest/delete.go, BeforeDelete). A ReplicaSet replaces a Terminating pod at
 * once (it counts active pods only: FilterActivePods, pkg/controller/controller_utils.go); a StatefulSet
 * waits until the old pod is gone (pkg/controller/statefulset/stateful_set_control.go).
 */
describe('graceful pod deletion in the simulated cluster', () => {
  let sim: SimulatedCluster;
  let core: CoreV1Api;
  const start = async (opts: Parameters<typeof startSimulatedCluster>[0]) => {
    sim = await startSimulatedCluster({ recreateDelayMs: 20, readyDelayMs: 20, ...opts });
    core = sim.kubeConfig().makeApiClient(CoreV1Api);
  };
  afterEach(async () => {
    await sim.close();
  });

  it('answers a DELETE with the pod Terminating: deletionTimestamp = now + 30 s, deletionGracePeriodSeconds 30', async () => {
    await start({ holdTerminatingPods: true });
    const before = Date.now();
    const answer = await core.deleteNamespacedPod({ namespace: ns, name: 'devtron-nats-0' });
    expect(answer.metadata?.deletionGracePeriodSeconds).toBe(30);
    const at = new Date(answer.metadata?.deletionTimestamp as unknown as string).getTime();
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 29_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 31_000);
    await sim.settle();
    const still = sim.get(pods, ns, 'devtron-nats-0');
    expect(still.metadata.uid).toBe(answer.metadata?.uid);
    expect(still.metadata.deletionTimestamp).toBeDefined();
    // kubectl get pods shows it as Terminating.
    const table = await fetch(`${sim.url}/api/v1/namespaces/${ns}/pods/devtron-nats-0`, {
      headers: { Authorization: `Bearer ${sim.token}`, Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    }).then((r) => r.json() as Promise<{ columnDefinitions: Array<{ name: string }>; rows: Array<{ cells: unknown[] }> }>);
    expect(table.rows[0]!.cells[table.columnDefinitions.findIndex((c) => c.name === 'Status')]).toBe('Terminating');
  });

  it('takes the grace from the request, may only shorten it later, and deletes at once with 0', async () => {
    await start({ holdTerminatingPods: true });
    const first = await core.deleteNamespacedPod({ namespace: ns, name: 'devtron-stan-0', gracePeriodSeconds: 10 });
    expect(first.metadata?.deletionGracePeriodSeconds).toBe(10);
    const longer = await core.deleteNamespacedPod({ namespace: ns, name: 'devtron-stan-0', gracePeriodSeconds: 60 });
    expect(longer.metadata?.deletionGracePeriodSeconds).toBe(10);
    const shorter = await core.deleteNamespacedPod({ namespace: ns, name: 'devtron-stan-0', gracePeriodSeconds: 4 });
    expect(shorter.metadata?.deletionGracePeriodSeconds).toBe(4);
    await core.deleteNamespacedPod({ namespace: ns, name: 'devtron-stan-0', gracePeriodSeconds: 0 });
    const replacement = sim.get(pods, ns, 'devtron-stan-0');
    expect(replacement === undefined || replacement.metadata.uid !== first.metadata?.uid).toBe(true);
  });

  it("takes the pod's own terminationGracePeriodSeconds, and none for a pod that has finished", async () => {
    await start({ holdTerminatingPods: true });
    await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'patient' }, spec: { terminationGracePeriodSeconds: 7, containers: [{ name: 'c', image: 'busybox' }] } } });
    expect((await core.deleteNamespacedPod({ namespace: ns, name: 'patient' })).metadata?.deletionGracePeriodSeconds).toBe(7);
    const finished = sim.list(pods, ns).find((p) => p.status.phase === 'Succeeded');
    await core.deleteNamespacedPod({ namespace: ns, name: finished.metadata.name });
    expect(sim.get(pods, ns, finished.metadata.name)).toBeUndefined();
  });

  it('gives a Deployment its replacement while the old pod still terminates, and counts only the replacement', async () => {
    await start({ holdTerminatingPods: true });
    const [old] = sim.list(pods, ns, 'app=devtron');
    await core.deleteNamespacedPod({ namespace: ns, name: old.metadata.name });
    await sim.settle();
    const now = sim.list(pods, ns, 'app=devtron');
    expect(now).toHaveLength(2);
    const fresh = now.find((p) => p.metadata.uid !== old.metadata.uid);
    expect(isReady(fresh)).toBe(true);
    expect(now.find((p) => p.metadata.uid === old.metadata.uid)?.metadata.deletionTimestamp).toBeDefined();
    expect(sim.get(deployments, ns, 'devtron').status).toMatchObject({ replicas: 1, readyReplicas: 1 });
    sim.holdTermination(false);
    await sim.settle();
    expect(sim.list(pods, ns, 'app=devtron').map((p) => p.metadata.uid)).toEqual([fresh.metadata.uid]);
  });

  it('makes a StatefulSet wait until the old pod is gone before it creates the new one', async () => {
    await start({ holdTerminatingPods: true });
    const old = sim.get(pods, ns, 'git-sensor-0');
    await core.deleteNamespacedPod({ namespace: ns, name: 'git-sensor-0' });
    await sim.settle();
    expect(sim.get(pods, ns, 'git-sensor-0').metadata.uid).toBe(old.metadata.uid);
    sim.holdTermination(false);
    await sim.settle();
    const fresh = sim.get(pods, ns, 'git-sensor-0');
    expect(fresh.metadata.uid).not.toBe(old.metadata.uid);
    expect(fresh.metadata.deletionTimestamp).toBeUndefined();
    expect(isReady(fresh)).toBe(true);
  });

  it('removes a Terminating pod once its containers have stopped (podStopMs), within its grace', async () => {
    await start({ podStopMs: 200 });
    const old = sim.get(pods, ns, 'git-sensor-0');
    await core.deleteNamespacedPod({ namespace: ns, name: 'git-sensor-0' });
    await new Promise((r) => setTimeout(r, 100));
    expect(sim.get(pods, ns, 'git-sensor-0')?.metadata.uid).toBe(old.metadata.uid);
    await sim.settle();
    expect(sim.get(pods, ns, 'git-sensor-0').metadata.uid).not.toBe(old.metadata.uid);
  });
});
