import { AppsV1Api, BatchV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../../src/cluster/sim/index.js';
import type { SimPolicy, SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { apiFailure, fast, pods } from './support.js';

/**
 * The texts the product and its users read, as kube-apiserver words them. Each test names the file of
 * Kubernetes' source the text comes from.
 */
const ns = 'devtroncd';
const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);

describe('kube-apiserver texts', () => {
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

  // k8s.io/apiserver/pkg/registry/rest/delete.go (BeforeDelete, called first by the generic store's Delete in
  // k8s.io/apiserver/pkg/registry/generic/registry/store.go): NewConflict(GroupResource{Group: gvk.Group,
  // Resource: gvk.Kind}, ...), so the object is named by its Kind (and group), not by its resource.
  it('words a uid precondition conflict on delete as BeforeDelete does, naming the kind', async () => {
    const uid = sim.get(pods, ns, 'devtron-nats-0').metadata.uid as string;
    const status = await apiFailure(() => core.deleteNamespacedPod({ namespace: ns, name: 'devtron-nats-0', body: { preconditions: { uid: 'not-it' } } }), 409);
    expect(status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Operation cannot be fulfilled on Pod "devtron-nats-0": the UID in the precondition (not-it) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
      reason: 'Conflict',
      details: { name: 'devtron-nats-0', kind: 'Pod' },
      code: 409,
    });
    const batch = sim.kubeConfig().makeApiClient(BatchV1Api);
    const job = await apiFailure(() => batch.deleteNamespacedJob({ namespace: ns, name: 'postgresql-migrate-devtron', body: { preconditions: { uid: 'not-it' } } }), 409);
    expect(job['message']).toMatch(/^Operation cannot be fulfilled on Job\.batch "postgresql-migrate-devtron": the UID in the precondition \(not-it\) does not match/);
    expect(job['details']).toEqual({ name: 'postgresql-migrate-devtron', group: 'batch', kind: 'Job' });
    const rv = sim.get(pods, ns, 'devtron-nats-0').metadata.resourceVersion as string;
    const stale = await apiFailure(() => core.deleteNamespacedPod({ namespace: ns, name: 'devtron-nats-0', body: { preconditions: { resourceVersion: '1' } } }), 409);
    expect(stale['message']).toBe(
      `Operation cannot be fulfilled on Pod "devtron-nats-0": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
    );
    expect(sim.get(pods, ns, 'devtron-nats-0').metadata.uid).toBe(uid);
  });

  // k8s.io/apiserver/pkg/endpoints/handlers/patch.go (jsonPatcher.applyJSPatch): a patch that decodes but does
  // not apply is NewGenericServerResponse(422, "", GroupResource{}, "", err, 0, false), whose message is fixed
  // (k8s.io/apimachinery/pkg/api/errors/errors.go) and which carries no causes: json-patch's words are lost.
  it('answers a JSON patch that does not apply (failed test, missing path) with the generic 422', async () => {
    const generic = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    };
    const failedTest = [{ op: 'test', path: '/data/ADMIN_PASSWORD', value: 'bm90LWl0' }, { op: 'remove', path: '/data/ADMIN_PASSWORD' }];
    expect(await apiFailure(() => core.patchNamespacedSecret({ namespace: ns, name: 'devtron-secret', body: failedTest }), 422)).toEqual(generic);
    expect(await apiFailure(() => core.patchNamespacedSecret({ namespace: ns, name: 'devtron-secret', body: [{ op: 'remove', path: '/data/NOPE' }] }), 422)).toEqual(generic);
    expect(await apiFailure(() => core.patchNamespacedSecret({ namespace: ns, name: 'devtron-secret', body: [{ op: 'replace', path: '/spec/x/y', value: 1 }] }), 422)).toEqual(generic);
    expect(Object.keys(sim.get({ group: '', version: 'v1', plural: 'secrets' }, ns, 'devtron-secret').data)).toContain('ADMIN_PASSWORD');
  });

  // pkg/apis/apps/validation/validation.go (ValidateStatefulSetUpdate): every field but these seven is
  // restored before the comparison, so a revisionHistoryLimit change passes; NewInvalid names the group kind.
  it('accepts a revisionHistoryLimit change to a stateful set and lists the mutable fields as current servers do', async () => {
    const patched = await apps.patchNamespacedStatefulSet({ namespace: ns, name: 'postgresql-postgresql', body: { spec: { revisionHistoryLimit: 3 } } }, strategic);
    expect(patched.spec?.revisionHistoryLimit).toBe(3);
    const refused = await apiFailure(() => apps.patchNamespacedStatefulSet({ namespace: ns, name: 'postgresql-postgresql', body: { spec: { serviceName: 'other' } } }, strategic), 422);
    expect(refused['message']).toBe(
      "StatefulSet.apps \"postgresql-postgresql\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
    expect(refused['details']).toMatchObject({ name: 'postgresql-postgresql', group: 'apps', kind: 'StatefulSet', causes: [{ reason: 'FieldValueForbidden', field: 'spec' }] });
  });

  // k8s.io/apiserver/pkg/registry/generic/registry/store.go (Store.Update): a custom resource's strategy does not
  // allow unconditional updates, so a PUT without resourceVersion is NewInvalid(GroupKind{group, resource}, ...)
  // with field.Invalid(metadata.resourceVersion, uint64 0, ...), printed as 0x0. Built-in kinds allow it.
  it('refuses a PUT without resourceVersion on a custom resource with 422, and accepts it on a built-in kind', async () => {
    const custom = sim.kubeConfig().makeApiClient(CustomObjectsApi);
    const ref = { group: 'cloud.google.com', version: 'v1', namespace: ns, plural: 'backendconfigs' };
    await custom.createNamespacedCustomObject({ ...ref, body: { apiVersion: 'cloud.google.com/v1', kind: 'BackendConfig', metadata: { name: 'unconditional' }, spec: { timeoutSec: 30 } } });
    const body = { apiVersion: 'cloud.google.com/v1', kind: 'BackendConfig', metadata: { name: 'unconditional', namespace: ns }, spec: { timeoutSec: 1800 } };
    const status = await apiFailure(() => custom.replaceNamespacedCustomObject({ ...ref, name: 'unconditional', body }), 422);
    expect(status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'backendconfigs.cloud.google.com "unconditional" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
      reason: 'Invalid',
      details: {
        name: 'unconditional',
        group: 'cloud.google.com',
        kind: 'backendconfigs',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }],
      },
      code: 422,
    });
    const cm = await core.readNamespacedConfigMap({ namespace: ns, name: 'devtron-cm' });
    const replaced = await core.replaceNamespacedConfigMap({ namespace: ns, name: 'devtron-cm', body: { metadata: { name: 'devtron-cm' }, data: { ...cm.data, X: '1' } } });
    expect(replaced.data?.['X']).toBe('1');
  });
});

// k8s.io/apiserver/pkg/endpoints/request/requestinfo.go (NewRequestInfo): a list or watch without a name whose
// fieldSelector requires metadata.name=X carries the name X, so RBAC's resourceNames apply to it; the verb stays list.
describe('a list narrowed to one name by fieldSelector', () => {
  const subject = 'system:serviceaccount:devtroncd:platform-medic-worker';
  const onePod: SimPolicy = {
    subject,
    clusterRules: [],
    namespaceRules: { [ns]: [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'], resourceNames: ['git-sensor-0'] }] },
  };
  let sim: SimulatedCluster;
  let core: CoreV1Api;
  beforeAll(async () => {
    sim = await startSimulatedCluster({ ...fast, policy: onePod });
    core = sim.kubeConfig().makeApiClient(CoreV1Api);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('is authorised with the name, as a rule limited to that name allows', async () => {
    const list = await core.listNamespacedPod({ namespace: ns, fieldSelector: 'metadata.name=git-sensor-0' });
    expect(list.items.map((p) => p.metadata?.name)).toEqual(['git-sensor-0']);
    const other = await apiFailure(() => core.listNamespacedPod({ namespace: ns, fieldSelector: 'metadata.name=devtron-nats-0' }), 403);
    expect(other['message']).toBe(`pods "devtron-nats-0" is forbidden: User "${subject}" cannot list resource "pods" in API group "" in the namespace "devtroncd"`);
    const all = await apiFailure(() => core.listNamespacedPod({ namespace: ns }), 403);
    expect(all['message']).toBe(`pods is forbidden: User "${subject}" cannot list resource "pods" in API group "" in the namespace "devtroncd"`);
    // A name the selector does not require exactly (`!=`) names nothing.
    await apiFailure(() => core.listNamespacedPod({ namespace: ns, fieldSelector: 'metadata.name!=git-sensor-0' }), 403);
  });
});
