import { AppsV1Api, BatchV1Api, CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../../src/cluster/sim/index.js';
import { deployments, freshSimulator, isReady, jobs, pods, statefulSets } from './support.js';

const ns = 'devtroncd';

/** Polls `probe` every 10 ms until it returns something (at most 3 s). */
async function until<T>(probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const found = probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('gave up waiting');
}

describe('the simulated controllers', () => {
  const env = freshSimulator();

  it('start with every workload pod Running and Ready, with realistic status', () => {
    const all = env.sim.list(pods, ns).filter((p) => !p.metadata.labels['job-name']);
    expect(all.length).toBe(10); // nine platform workloads and the rollout controller
    for (const pod of all) {
      expect(pod.status.phase).toBe('Running');
      expect(isReady(pod)).toBe(true);
      expect(pod.status.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
      expect(pod.status.containerStatuses[0]).toMatchObject({ ready: true, restartCount: 0, state: { running: {} } });
      expect(Date.parse(pod.status.startTime)).toBeLessThan(Date.now() - 24 * 3600 * 1000);
    }
    const db = env.sim.get(pods, ns, 'postgresql-postgresql-0');
    expect(db.spec.initContainers[0]).toMatchObject({ name: 'init-chmod-data', image: 'docker.io/bitnami/minideb:latest' });
    expect(db.spec.containers[0]).toMatchObject({ name: 'postgresql-postgresql', image: 'docker.io/bitnami/postgresql:11.3.0-debian-9-r28' });
    expect(env.sim.get(statefulSets, ns, 'git-sensor').status).toMatchObject({ replicas: 1, readyReplicas: 1 });
    expect(env.sim.get(deployments, ns, 'devtron').status).toMatchObject({ replicas: 1, readyReplicas: 1, availableReplicas: 1 });
  });

  it('recreate a deleted stateful set pod under the same name with a new uid, Pending first and then Ready', async () => {
    const before = env.sim.get(pods, ns, 'git-sensor-0');
    await env.core.deleteNamespacedPod({ namespace: ns, name: 'git-sensor-0' });
    // Terminating first (graceful deletion); the StatefulSet makes the new pod only once the old one is gone.
    expect(env.sim.get(pods, ns, 'git-sensor-0')?.metadata.uid).toBe(before.metadata.uid);
    expect(env.sim.get(pods, ns, 'git-sensor-0')?.metadata.deletionTimestamp).toBeDefined();

    const fresh = await until(() => {
      const now = env.sim.get(pods, ns, 'git-sensor-0');
      return now && now.metadata.uid !== before.metadata.uid ? now : undefined;
    });
    expect(fresh.metadata.deletionTimestamp).toBeUndefined();

    await env.sim.settle();
    const after = await env.core.readNamespacedPod({ namespace: ns, name: 'git-sensor-0' });
    expect(after.metadata?.uid).toBe(fresh.metadata.uid);
    expect(after.metadata?.labels).toMatchObject({ app: 'git-sensor' });
    expect(after.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', name: 'git-sensor', controller: true });
    expect(after.spec?.volumes?.[0]?.persistentVolumeClaim?.claimName).toBe('git-volume-git-sensor-0');
    expect(isReady(after as never)).toBe(true);
  });

  it('replace a deleted deployment pod with a new name and uid from the same ReplicaSet', async () => {
    const [before] = env.sim.list(pods, ns, 'app=devtron');
    const rsName = before.metadata.ownerReferences[0].name as string;
    await env.core.deleteNamespacedPod({ namespace: ns, name: before.metadata.name });
    expect(env.sim.list(pods, ns, 'app=devtron').map((p) => [p.metadata.uid, Boolean(p.metadata.deletionTimestamp)])).toEqual([[before.metadata.uid, true]]);
    await env.sim.settle();
    const after = env.sim.list(pods, ns, 'app=devtron');
    expect(after).toHaveLength(1);
    expect(after[0].metadata.uid).not.toBe(before.metadata.uid);
    expect(after[0].metadata.name).toMatch(new RegExp(`^${rsName}-[a-z0-9]{5}$`));
    expect(after[0].metadata.name).not.toBe(before.metadata.name);
    expect(isReady(after[0])).toBe(true);
    expect(env.sim.get(deployments, ns, 'devtron').status).toMatchObject({ readyReplicas: 1 });
  });

  it('show the replacement not Ready until readyDelayMs has passed', async () => {
    const slow = await startSimulatedCluster({ recreateDelayMs: 10, readyDelayMs: 400, podStopMs: 10 });
    try {
      const api = slow.kubeConfig().makeApiClient(CoreV1Api);
      await api.deleteNamespacedPod({ namespace: ns, name: 'devtron-nats-0' });
      await new Promise((r) => setTimeout(r, 100));
      const pending = await api.readNamespacedPod({ namespace: ns, name: 'devtron-nats-0' });
      expect(pending.status?.phase).toBe('Pending');
      expect(isReady(pending as never)).toBe(false);
      await slow.settle();
      expect(isReady(slow.get(pods, ns, 'devtron-nats-0'))).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it('cascade a Deployment deletion to its ReplicaSet and pods, without recreating them', async () => {
    const apps = env.sim.kubeConfig().makeApiClient(AppsV1Api);
    await apps.deleteNamespacedDeployment({ namespace: ns, name: 'kubewatch' });
    await env.sim.settle();
    expect(env.sim.list(pods, ns, 'app=kubewatch')).toHaveLength(0);
    expect(env.sim.list({ group: 'apps', version: 'v1', plural: 'replicasets' }, ns, 'app=kubewatch')).toHaveLength(0);
  });

  it('roll a Deployment to a new ReplicaSet when its template changes', async () => {
    const apps = env.sim.kubeConfig().makeApiClient(AppsV1Api);
    const [before] = env.sim.list(pods, ns, 'app=kubewatch');
    await apps.patchNamespacedDeployment({
      namespace: ns,
      name: 'kubewatch',
      body: [{ op: 'add', path: '/spec/template/metadata/annotations', value: { 'kubectl.kubernetes.io/restartedAt': new Date().toISOString() } }],
    });
    await env.sim.settle();
    const after = env.sim.list(pods, ns, 'app=kubewatch');
    expect(after).toHaveLength(1);
    expect(after[0].metadata.labels['pod-template-hash']).not.toBe(before.metadata.labels['pod-template-hash']);
    expect(isReady(after[0])).toBe(true);
  });

  it('run a new Job to completion: one pod, then 1/1 succeeded', async () => {
    const batch = env.sim.kubeConfig().makeApiClient(BatchV1Api);
    await batch.createNamespacedJob({
      namespace: ns,
      body: { metadata: { name: 'postgresql-migrate-devtron-again' }, spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'migrate', image: 'quay.io/devtron/migrator:v4.16.2' }] } } } },
    });
    await env.sim.settle();
    const [pod] = env.sim.list(pods, ns, 'job-name=postgresql-migrate-devtron-again');
    expect(pod.status.phase).toBe('Succeeded');
    const job = env.sim.get(jobs, ns, 'postgresql-migrate-devtron-again');
    expect(job.status).toMatchObject({ succeeded: 1 });
    expect(job.status.conditions.map((c: { type: string }) => c.type)).toContain('Complete');
  });
});
