import { CoreV1Api, PatchStrategy, StorageV1Api, setHeaderOptions } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterError } from '../../../src/cluster/errors.js';
import { ClusterGateway } from '../../../src/cluster/gateway.js';
import { startSimulatedCluster, type SimulatedCluster, type SimulatedClusterOptions } from '../../../src/cluster/sim/index.js';
import { apiFailure } from './support.js';

const ns = 'devtroncd';
const claim = 'git-volume-git-sensor-0';
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const claims = { group: '', version: 'v1', plural: 'persistentvolumeclaims' };
const size = (storage: string) => ({ spec: { resources: { requests: { storage } } } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Growing a claim on a real cluster: validation first (pkg/apis/core/validation/validation.go,
 * ValidatePersistentVolumeClaimUpdate: a request may go down, but never to status.capacity or below), then
 * the PersistentVolumeClaimResize admission plugin (plugin/pkg/admission/storage/persistentvolume/resize/
 * admission.go), whose refusals are 403 Forbidden: "Only bound persistent volume claims can be expanded",
 * and "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must
 * support resize" when the class, as the plugin's informer cache has it, does not allow expansion.
 * status.capacity moves only when the resizer and the kubelet are done.
 */
describe('claim resize in the simulated cluster', () => {
  let sim: SimulatedCluster;
  let core: CoreV1Api;
  let storage: StorageV1Api;
  const start = async (opts: SimulatedClusterOptions = {}) => {
    sim = await startSimulatedCluster({ recreateDelayMs: 20, readyDelayMs: 20, ...opts });
    core = sim.kubeConfig().makeApiClient(CoreV1Api);
    storage = sim.kubeConfig().makeApiClient(StorageV1Api);
  };
  const grow = (storageSize: string) => core.patchNamespacedPersistentVolumeClaim({ namespace: ns, name: claim, body: size(storageSize) }, merge);
  afterEach(async () => {
    await sim.close();
  });

  it('refuses growth with the admission plugin’s 403 while the class does not allow expansion', async () => {
    await start();
    const status = await apiFailure(() => grow('20Gi'), 403);
    expect(status).toMatchObject({
      reason: 'Forbidden',
      message: `persistentvolumeclaims "${claim}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`,
      details: { name: claim, kind: 'persistentvolumeclaims' },
    });
  });

  it('refuses for a moment after the class allowed expansion (the plugin’s cache lags), then admits', async () => {
    await start({ storageClassCacheLagMs: 400 });
    await storage.patchStorageClass({ name: 'standard', body: { allowVolumeExpansion: true } }, merge);
    await apiFailure(() => grow('20Gi'), 403);
    await sleep(500);
    const grown = await grow('20Gi');
    expect(grown.spec?.resources?.requests?.['storage']).toBe('20Gi');
  });

  it('records the request at once and reports the capacity only after the resizer', async () => {
    await start({ storageClassCacheLagMs: 0, volumeResizeMs: 300 });
    await storage.patchStorageClass({ name: 'standard', body: { allowVolumeExpansion: true } }, merge);
    const grown = await grow('20Gi');
    expect(grown.status?.capacity?.['storage']).toBe('10Gi');
    await sleep(100);
    const resizing = await core.readNamespacedPersistentVolumeClaim({ namespace: ns, name: claim });
    expect(resizing.status?.capacity?.['storage']).toBe('10Gi');
    expect(resizing.status?.conditions?.map((c) => c.type)).toEqual(['Resizing']);
    expect(resizing.status?.allocatedResources?.['storage']).toBe('20Gi');
    await sim.settle();
    const done = sim.get(claims, ns, claim);
    expect(done.status.capacity.storage).toBe('20Gi');
    expect(done.status.conditions).toBeUndefined();
  });

  it('lets a request go back down above status.capacity, and refuses it at or below, in the validation’s words', async () => {
    await start({ storageClassCacheLagMs: 0, volumeResizeMs: 60_000 });
    await storage.patchStorageClass({ name: 'standard', body: { allowVolumeExpansion: true } }, merge);
    await grow('30Gi');
    // Capacity still 10Gi: recovering from an expansion that has not happened is allowed down to just above it.
    expect((await grow('15Gi')).spec?.resources?.requests?.['storage']).toBe('15Gi');
    for (const below of ['10Gi', '5Gi']) {
      const status = await apiFailure(() => grow(below), 422);
      expect(status).toMatchObject({
        reason: 'Invalid',
        message: `PersistentVolumeClaim "${claim}" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity`,
      });
    }
  });

  it('refuses to grow a claim that is not bound', async () => {
    await start({ storageClassCacheLagMs: 0 });
    await storage.patchStorageClass({ name: 'standard', body: { allowVolumeExpansion: true } }, merge);
    const pending = sim.get(claims, ns, claim);
    await core.replaceNamespacedPersistentVolumeClaimStatus({ namespace: ns, name: claim, body: { ...pending, status: { ...pending.status, phase: 'Pending' } } });
    const status = await apiFailure(() => grow('20Gi'), 403);
    expect(status['message']).toBe(`persistentvolumeclaims "${claim}" is forbidden: Only bound persistent volume claims can be expanded`);
  });

  it('reaches the product as an admission refusal, not as missing RBAC', async () => {
    await start();
    const gateway = new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 3_000 });
    const found = await gateway.storage.getClaim(ns, claim);
    const error = await gateway.storage.resizeClaim(ns, claim, '20Gi', found!.resourceVersion).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterError);
    expect((error as ClusterError).code).toBe('refused');
    expect((error as ClusterError).message).toContain('only dynamically provisioned pvc can be resized');
    expect((error as ClusterError).message).toContain('not a permission the worker lacks');
    expect((error as ClusterError).message).not.toMatch(/RBAC/);
  });
});
