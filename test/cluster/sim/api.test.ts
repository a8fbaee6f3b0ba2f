import { AppsV1Api, BatchV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, StorageV1Api, Watch, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../../src/cluster/sim/index.js';
import type { SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { apiFailure, fast, pods } from './support.js';

const ns = 'devtroncd';
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);

describe('the simulated API server, through client-node', () => {
  let sim: SimulatedCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;

  beforeAll(async () => {
    sim = await startSimulatedCluster(fast);
    core = sim.kubeConfig().makeApiClient(CoreV1Api);
    apps = sim.kubeConfig().makeApiClient(AppsV1Api);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('lists pods by equality and set-based selectors, in a namespace and across all', async () => {
    const main = await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=devtron' });
    expect(main.items.map((p) => p.metadata?.name)).toEqual([expect.stringMatching(/^devtron-[a-z0-9]{10}-[a-z0-9]{5}$/)]);
    expect(main.metadata?.resourceVersion).toMatch(/^\d+$/);

    const both = await core.listNamespacedPod({ namespace: ns, labelSelector: 'app in (devtron, kubewatch),app!=git-sensor' });
    expect(both.items.map((p) => p.metadata?.labels?.['app']).sort()).toEqual(['devtron', 'kubewatch']);

    const notMain = await core.listNamespacedPod({ namespace: ns, labelSelector: 'app notin (devtron),statefulset.kubernetes.io/pod-name' });
    expect(notMain.items.map((p) => p.metadata?.name).sort()).toEqual(['devtron-nats-0', 'devtron-stan-0', 'git-sensor-0', 'postgresql-postgresql-0']);

    const noJobs = await core.listNamespacedPod({ namespace: ns, labelSelector: '!job-name' });
    expect(noJobs.items.some((p) => p.metadata?.name?.startsWith('postgresql-migrate'))).toBe(false);

    const builds = await core.listPodForAllNamespaces({ labelSelector: 'devtron.ai/purpose=workflow' });
    expect(builds.items.length).toBe(3);
    expect(new Set(builds.items.map((p) => p.metadata?.namespace))).toEqual(new Set(['devtron-ci']));
    expect(builds.items.every((p) => p.status?.phase === 'Succeeded')).toBe(true);

    const byField = await core.listNamespacedPod({ namespace: ns, fieldSelector: 'metadata.name=git-sensor-0' });
    expect(byField.items.map((p) => p.metadata?.name)).toEqual(['git-sensor-0']);
  });

  it('answers a bad selector with 400 BadRequest', async () => {
    const status = await apiFailure(() => core.listNamespacedPod({ namespace: ns, labelSelector: 'app in devtron' }), 400);
    expect(status).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
  });

  it('answers a missing object with 404 and the API server Status body', async () => {
    const status = await apiFailure(() => core.readNamespacedPod({ namespace: ns, name: 'x' }), 404);
    expect(status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'pods' },
      code: 404,
    });
    const grouped = await apiFailure(() => apps.readNamespacedDeployment({ namespace: ns, name: 'nope' }), 404);
    expect(grouped).toMatchObject({ message: 'deployments.apps "nope" not found', details: { name: 'nope', group: 'apps', kind: 'deployments' } });
  });

  it('refuses to create an object that exists with 409 AlreadyExists, and an unnamed one with 422 Invalid', async () => {
    const status = await apiFailure(
      () => core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'devtron-secret' }, data: {} } }),
      409,
    );
    expect(status).toMatchObject({ reason: 'AlreadyExists', message: 'secrets "devtron-secret" already exists', code: 409 });
    const invalid = await apiFailure(() => core.createNamespacedConfigMap({ namespace: ns, body: { metadata: {}, data: {} } }), 422);
    expect(invalid).toMatchObject({ reason: 'Invalid', details: { causes: [{ field: 'metadata.name', reason: 'FieldValueRequired' }] } });
  });

  it('creates objects with uid, creationTimestamp, generation and a growing resourceVersion', async () => {
    const before = Number((await core.listNamespacedConfigMap({ namespace: ns })).metadata?.resourceVersion);
    const made = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { generateName: 'medic-' }, data: { a: '1' } } });
    expect(made.metadata?.name).toMatch(/^medic-[a-z0-9]{5}$/);
    expect(made.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect(Number(made.metadata?.resourceVersion)).toBeGreaterThan(before);
    const list = await core.listNamespacedConfigMap({ namespace: ns });
    expect(list.items.map((c) => c.metadata?.name)).toContain(made.metadata?.name);
  });

  it('merges labels and annotations with a merge patch, null deleting a key', async () => {
    const [pod] = sim.list(pods, ns, 'app=kubewatch');
    const name = pod.metadata.name as string;
    await core.patchNamespacedPod({ namespace: ns, name, body: { metadata: { labels: { team: 'ops' }, annotations: { why: 'test' } } } }, merge);
    await core.patchNamespacedPod({ namespace: ns, name, body: { metadata: { annotations: { why: null } } } }, merge);
    const after = await core.readNamespacedPod({ namespace: ns, name });
    expect(after.metadata?.labels).toMatchObject({ app: 'kubewatch', team: 'ops' });
    expect(after.metadata?.annotations?.['why']).toBeUndefined();
    expect(sim.requests().filter((r) => r.method === 'PATCH' && r.path.endsWith(`/pods/${name}`)).map((r) => r.status)).toEqual([200, 200]);
  });

  it('applies a JSON patch (client-node default) including a failing test operation', async () => {
    const name = 'devtron-secret';
    const before = await core.readNamespacedSecret({ namespace: ns, name });
    await core.patchNamespacedSecret({ namespace: ns, name, body: [{ op: 'remove', path: '/data/admin.password' }, { op: 'add', path: '/data/NEW', value: 'eA==' }] });
    const after = await core.readNamespacedSecret({ namespace: ns, name });
    expect(Object.keys(after.data ?? {}).sort()).toEqual(['ACD_PASSWORD', 'ADMIN_PASSWORD', 'GRAFANA_PASSWORD', 'NEW', 'PG_PASSWORD', 'admin.passwordMtime']);
    expect(Number(after.metadata?.resourceVersion)).toBeGreaterThan(Number(before.metadata?.resourceVersion));
    await apiFailure(() => core.patchNamespacedSecret({ namespace: ns, name, body: [{ op: 'test', path: '/data/NEW', value: 'nope' }] }), 422);
  });

  it('deletes secret keys with a strategic merge patch of nulls', async () => {
    await core.patchNamespacedSecret({ namespace: ns, name: 'argocd-secret', body: { data: { 'tls.crt': null, 'tls.key': null } } }, strategic);
    const after = await core.readNamespacedSecret({ namespace: ns, name: 'argocd-secret' });
    expect(Object.keys(after.data ?? {}).sort()).toEqual(['admin.password', 'admin.passwordMtime', 'server.secretkey']);
  });

  it('merges a stateful set container image by name with a strategic merge patch, leaving the others', async () => {
    const body = {
      spec: {
        template: {
          spec: {
            initContainers: [{ name: 'init-chmod-data', image: 'quay.io/devtron/minideb:latest' }],
            containers: [{ name: 'postgresql-postgresql', image: 'quay.io/devtron/postgres:11.3.0-debian-9-r28' }],
          },
        },
      },
    };
    const before = await apps.readNamespacedStatefulSet({ namespace: ns, name: 'postgresql-postgresql' });
    const patched = await apps.patchNamespacedStatefulSet({ namespace: ns, name: 'postgresql-postgresql', body }, strategic);
    const spec = patched.spec?.template.spec;
    expect(spec?.initContainers?.map((c) => [c.name, c.image])).toEqual([['init-chmod-data', 'quay.io/devtron/minideb:latest']]);
    expect(spec?.containers.map((c) => [c.name, c.image])).toEqual([['postgresql-postgresql', 'quay.io/devtron/postgres:11.3.0-debian-9-r28']]);
    expect(spec?.initContainers?.[0]?.command).toEqual(before.spec?.template.spec?.initContainers?.[0]?.command);
    expect(spec?.containers[0]?.ports).toEqual(before.spec?.template.spec?.containers[0]?.ports);
    expect(patched.metadata?.generation).toBe((before.metadata?.generation ?? 0) + 1);
    // Not a rolling update: the running pod keeps its image until it is deleted, as the guide's remedy expects.
    expect(sim.get(pods, ns, 'postgresql-postgresql-0').spec.containers[0].image).toBe('docker.io/bitnami/postgresql:11.3.0-debian-9-r28');

    const forbidden = await apiFailure(
      () => apps.patchNamespacedStatefulSet({ namespace: ns, name: 'postgresql-postgresql', body: { spec: { serviceName: 'other' } } }, strategic),
      422,
    );
    expect(String(forbidden['message'])).toContain("updates to statefulset spec for fields other than 'replicas'");
  });

  it('refuses a write from a stale resourceVersion with 409 Conflict', async () => {
    const stale = await core.readNamespacedConfigMap({ namespace: ns, name: 'devtron-cm' });
    await core.replaceNamespacedConfigMap({ namespace: ns, name: 'devtron-cm', body: { ...stale, data: { ...stale.data, A: '1' } } });
    const status = await apiFailure(
      () => core.replaceNamespacedConfigMap({ namespace: ns, name: 'devtron-cm', body: { ...stale, data: { B: '2' } } }),
      409,
    );
    expect(status).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on configmaps "devtron-cm": the object has been modified; please apply your changes to the latest version and try again',
    });
    await apiFailure(
      () =>
        core.patchNamespacedConfigMap(
          { namespace: ns, name: 'devtron-cm', body: { metadata: { resourceVersion: stale.metadata?.resourceVersion }, data: { C: '3' } } },
          merge,
        ),
      409,
    );
    expect((await core.readNamespacedConfigMap({ namespace: ns, name: 'devtron-cm' })).data).toMatchObject({ A: '1' });
  });

  it('keeps the store unchanged on dryRun=All for create, patch and delete', async () => {
    // Controllers still replacing what another test deleted would move the resourceVersion.
    await sim.settle();
    const rvBefore = (await core.listNamespacedPod({ namespace: ns })).metadata?.resourceVersion;
    const created = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'dry' }, data: {} }, dryRun: 'All' });
    expect(created.metadata?.name).toBe('dry');
    await apiFailure(() => core.readNamespacedConfigMap({ namespace: ns, name: 'dry' }), 404);

    const patched = await core.patchNamespacedPod({ namespace: ns, name: 'git-sensor-0', body: { metadata: { labels: { dry: 'yes' } } }, dryRun: 'All' }, merge);
    expect(patched.metadata?.labels?.['dry']).toBe('yes');
    expect(sim.get(pods, ns, 'git-sensor-0').metadata.labels['dry']).toBeUndefined();

    const uid = sim.get(pods, ns, 'git-sensor-0').metadata.uid;
    await core.deleteNamespacedPod({ namespace: ns, name: 'git-sensor-0', dryRun: 'All' });
    expect(sim.get(pods, ns, 'git-sensor-0').metadata.uid).toBe(uid);
    expect((await core.listNamespacedPod({ namespace: ns })).metadata?.resourceVersion).toBe(rvBefore);
  });

  it('enforces a uid precondition on delete', async () => {
    const status = await apiFailure(() => core.deleteNamespacedPod({ namespace: ns, name: 'devtron-nats-0', body: { preconditions: { uid: 'not-it' } } }), 409);
    expect(String(status['message'])).toMatch(/^Precondition failed: UID in precondition: not-it/);
  });

  it('serves the installer custom resource, rollouts and backend configs, and storage classes', async () => {
    const custom = sim.kubeConfig().makeApiClient(CustomObjectsApi);
    const installer = (await custom.getNamespacedCustomObject({ group: 'installer.devtron.ai', version: 'v1alpha1', namespace: ns, plural: 'installers', name: 'installer-devtron' })) as {
      status: { sync: { data: string } };
    };
    expect(installer.status.sync.data.split('\n')).toContain('LTAG=v0.6.29');
    const backend = { group: 'cloud.google.com', version: 'v1', namespace: ns, plural: 'backendconfigs' };
    await custom.createNamespacedCustomObject({ ...backend, body: { apiVersion: 'cloud.google.com/v1', kind: 'BackendConfig', metadata: { name: 'devtron-backendconfig' }, spec: { timeoutSec: 1800 } } });
    const listed = (await custom.listNamespacedCustomObject(backend)) as { kind: string; items: Array<{ spec: { timeoutSec: number } }> };
    expect(listed.kind).toBe('BackendConfigList');
    expect(listed.items.map((i) => i.spec.timeoutSec)).toEqual([1800]);
    // Custom resources have no strategic merge patch, as with a CRD.
    const status = await apiFailure(() => custom.patchNamespacedCustomObject({ ...backend, name: 'devtron-backendconfig', body: { spec: { timeoutSec: 60 } } }, strategic), 415);
    expect(status['reason']).toBe('UnsupportedMediaType');
    expect((await custom.listNamespacedCustomObject({ group: 'argoproj.io', version: 'v1alpha1', namespace: ns, plural: 'rollouts' })).items).toEqual([]);

    const storage = sim.kubeConfig().makeApiClient(StorageV1Api);
    const sc = await storage.readStorageClass({ name: 'standard' });
    expect(sc.allowVolumeExpansion).toBe(false);
  });

  it('refuses to grow a claim while the storage class does not allow expansion, and grows it once it does', async () => {
    const body = { spec: { resources: { requests: { storage: '20Gi' } } } };
    const refused = await apiFailure(() => core.patchNamespacedPersistentVolumeClaim({ namespace: ns, name: 'git-volume-git-sensor-0', body }, strategic), 422);
    expect(String(refused['message'])).toContain('the storageclass that provisions the pvc must support resize');
    const storage = sim.kubeConfig().makeApiClient(StorageV1Api);
    await storage.patchStorageClass({ name: 'standard', body: { allowVolumeExpansion: true } }, merge);
    try {
      const grown = await core.patchNamespacedPersistentVolumeClaim({ namespace: ns, name: 'git-volume-git-sensor-0', body }, strategic);
      expect(grown.spec?.resources?.requests?.['storage']).toBe('20Gi');
      expect(grown.status?.capacity?.['storage']).toBe('20Gi');
    } finally {
      // The storage class as seeded, for the tests that read it.
      await storage.patchStorageClass({ name: 'standard', body: { allowVolumeExpansion: false } }, merge);
    }
  });

  it('rejects a missing or wrong bearer token with 401', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfigYaml().replace(sim.token, 'wrong-token'));
    const error = await kc
      .makeApiClient(CoreV1Api)
      .listNamespacedPod({ namespace: ns })
      .catch((e: unknown) => e);
    expect((error as { code?: number }).code).toBe(401);
    const raw = await fetch(`${sim.url}/api/v1/namespaces/${ns}/pods`);
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('answers unknown paths with 404, unsupported methods with 405 and unknown patch types with 415', async () => {
    const headers = { Authorization: `Bearer ${sim.token}` };
    expect((await fetch(`${sim.url}/apis/apps/v1/namespaces/${ns}/widgets`, { headers })).status).toBe(404);
    expect((await fetch(`${sim.url}/api/v1/namespaces/${ns}/pods`, { method: 'PUT', headers, body: '{}' })).status).toBe(405);
    const res = await fetch(`${sim.url}/api/v1/namespaces/${ns}/pods/git-sensor-0`, { method: 'PATCH', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ reason: 'UnsupportedMediaType', code: 415 });
    const discovery = (await (await fetch(`${sim.url}/apis/installer.devtron.ai/v1alpha1`, { headers })).json()) as { resources: Array<{ name: string; namespaced: boolean }> };
    expect(discovery.resources).toContainEqual(expect.objectContaining({ name: 'installers', namespaced: true }));
  });

  it('streams watch events to client-node Watch, including the deletion of a pod', async () => {
    const list = await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=devtron-grafana-none' });
    const seen: string[] = [];
    const watch = new Watch(sim.kubeConfig());
    const [pod] = sim.list(pods, ns, 'app.kubernetes.io/name=grafana');
    const name = pod.metadata.name as string;
    const deleted = new Promise<void>((resolve) => {
      void watch.watch(
        `/api/v1/namespaces/${ns}/pods`,
        { labelSelector: 'app.kubernetes.io/name=grafana', resourceVersion: list.metadata?.resourceVersion },
        (type, obj: { metadata: { name: string } }) => {
          seen.push(`${type} ${obj.metadata.name}`);
          if (type === 'DELETED') resolve();
        },
        () => undefined,
      ).then((controller) => deleted.finally(() => controller.abort()));
    });
    await new Promise((r) => setTimeout(r, 50));
    await core.deleteNamespacedPod({ namespace: ns, name });
    await deleted;
    expect(seen).toEqual([`DELETED ${name}`]);
  });
});

describe('a Job deletion', () => {
  let sim: SimulatedCluster;
  beforeAll(async () => {
    sim = await startSimulatedCluster(fast);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('orphans the pods by default (with the API server warning) and removes them with propagationPolicy=Background', async () => {
    const batch = sim.kubeConfig().makeApiClient(BatchV1Api);
    const jobs = (await batch.listNamespacedJob({ namespace: 'devtroncd' })).items;
    expect(jobs.length).toBe(4);
    expect(jobs.every((j) => j.status?.succeeded === 1 && j.spec?.completions === 1)).toBe(true);
    const [first, second] = jobs.map((j) => j.metadata?.name as string);

    const info = await batch.deleteNamespacedJobWithHttpInfo({ namespace: 'devtroncd', name: first! });
    expect(info.headers['warning']).toContain('child pods are preserved by default when jobs are deleted');
    const orphan = sim.list(pods, 'devtroncd', `job-name=${first}`);
    expect(orphan).toHaveLength(1);
    expect(orphan[0].metadata.ownerReferences).toBeUndefined();

    await batch.deleteNamespacedJob({ namespace: 'devtroncd', name: second!, propagationPolicy: 'Background' });
    expect(sim.list(pods, 'devtroncd', `job-name=${second}`)).toHaveLength(0);
  });
});
