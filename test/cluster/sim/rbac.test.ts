import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../../src/cluster/sim/index.js';
import type { SimPolicy, SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { apiFailure, fast, pods } from './support.js';

const ns = 'devtroncd';
const subject = 'system:serviceaccount:devtroncd:platform-medic-worker';
const readPods: SimPolicy = {
  subject,
  clusterRules: [],
  namespaceRules: { [ns]: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] },
};

describe('authorisation against an RBAC policy', () => {
  let sim: SimulatedCluster;
  let core: CoreV1Api;

  beforeAll(async () => {
    sim = await startSimulatedCluster({ ...fast, policy: readPods });
    core = sim.kubeConfig().makeApiClient(CoreV1Api);
  });
  // A test may replace the policy at runtime; every test starts from the one above.
  beforeEach(() => sim.setPolicy(readPods));
  afterAll(async () => {
    await sim.close();
  });

  it('allows what the rules allow', async () => {
    const list = await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=devtron' });
    expect(list.items).toHaveLength(1);
  });

  it('refuses a verb the rules do not grant, with the API server message, and changes nothing', async () => {
    const [pod] = sim.list(pods, ns, 'app=devtron');
    const status = await apiFailure(() => core.deleteNamespacedPod({ namespace: ns, name: pod.metadata.name }), 403);
    expect(status).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: `pods "${pod.metadata.name}" is forbidden: User "${subject}" cannot delete resource "pods" in API group "" in the namespace "devtroncd"`,
      details: { name: pod.metadata.name, kind: 'pods' },
    });
    expect(sim.get(pods, ns, pod.metadata.name)?.metadata.uid).toBe(pod.metadata.uid);
  });

  it('words refusals of subresources, other groups, other namespaces and the cluster scope as Kubernetes does', async () => {
    const log = await apiFailure(() => core.readNamespacedPodLog({ namespace: ns, name: 'git-sensor-0' }), 403);
    expect(log['message']).toBe(`pods "git-sensor-0" is forbidden: User "${subject}" cannot get resource "pods/log" in API group "" in the namespace "devtroncd"`);
    const apps = sim.kubeConfig().makeApiClient(AppsV1Api);
    const sts = await apiFailure(() => apps.listNamespacedStatefulSet({ namespace: ns }), 403);
    expect(sts['message']).toBe(`statefulsets.apps is forbidden: User "${subject}" cannot list resource "statefulsets" in API group "apps" in the namespace "devtroncd"`);
    const ci = await apiFailure(() => core.listNamespacedPod({ namespace: 'devtron-ci' }), 403);
    expect(ci['message']).toContain('in the namespace "devtron-ci"');
    const all = await apiFailure(() => core.listPodForAllNamespaces(), 403);
    expect(all['message']).toBe(`pods is forbidden: User "${subject}" cannot list resource "pods" in API group "" at the cluster scope`);
  });

  it('honours resourceNames and subresources, and can be replaced at runtime', async () => {
    sim.setPolicy({
      subject,
      clusterRules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }],
      namespaceRules: {
        [ns]: [
          { apiGroups: [''], resources: ['pods'], verbs: ['delete'], resourceNames: ['git-sensor-0'] },
          { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
        ],
      },
    });
    expect(await core.readNamespacedPodLog({ namespace: ns, name: 'git-sensor-0' })).toContain('starting git-sensor');
    await core.deleteNamespacedPod({ namespace: ns, name: 'git-sensor-0' });
    await apiFailure(() => core.deleteNamespacedPod({ namespace: ns, name: 'devtron-nats-0' }), 403);
    await apiFailure(() => core.listNamespacedPod({ namespace: ns }), 403);
    expect((await core.readNamespace({ name: ns })).metadata?.name).toBe(ns);

    sim.setPolicy(undefined);
    expect((await core.listPodForAllNamespaces()).items.length).toBeGreaterThan(10);
    await sim.settle();
  });
});
