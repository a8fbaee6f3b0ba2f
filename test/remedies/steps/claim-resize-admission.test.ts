import { describe, expect, it } from 'vitest';
import { harness, refs } from './support.js';

const ns = 'devtroncd';
const claim = 'git-volume-git-sensor-0';
const claimPath = `/api/v1/namespaces/${ns}/persistentvolumeclaims/${claim}`;

/**
 * Entry 24 on a real cluster. kube-apiserver's PersistentVolumeClaimResize admission plugin reads the
 * StorageClass from an informer cache (plugin/pkg/admission/storage/persistentvolume/resize/admission.go),
 * so the resize right after the allowVolumeExpansion step can be refused with 403 "… the storageclass that
 * provisions the pvc must support resize" for a moment; and status.capacity moves only once the resizer and
 * the kubelet are done, so right after the patch the claim usually still shows its old capacity.
 */
describe('growing the git-sensor claim through the admission plugin', () => {
  it('tries the refusal again while the plugin’s cache catches up, and grows the claim', async () => {
    const { sim, plan, run } = await harness({ storageClassCacheLagMs: 1_000, volumeResizeMs: 100 });
    await sim.break('git-sensor-volume-full');
    const { outcome, progress } = await run(await plan('git-sensor-volume-full', { size: '20Gi' }));
    expect(outcome.status).toBe('completed');
    expect(progress.filter((x) => x.status === 'done').map((x) => x.message)).toEqual([
      'StorageClass standard now allows volume expansion.',
      'Claim git-volume-git-sensor-0 grew from 10Gi to 20Gi (capacity 20Gi).',
    ]);
    const patches = sim.requests().filter((r) => r.method === 'PATCH' && r.path === claimPath && !r.query.includes('dryRun'));
    expect(patches[0]?.status).toBe(403);
    expect(patches.at(-1)?.status).toBe(200);
    expect(sim.symptoms()).toEqual([]);
  });

  it('says so truthfully when the refusal persists, and leaves the claim as it was', async () => {
    const { sim, plan, run } = await harness({ storageClassCacheLagMs: 60_000 });
    await sim.break('git-sensor-volume-full');
    const { outcome, progress } = await run(await plan('git-sensor-volume-full', { size: '20Gi' }));
    const failed = progress.find((x) => x.status === 'failed');
    expect(outcome.status).not.toBe('completed');
    expect(failed?.message).toMatch(
      /^The API server still refuses to grow claim devtroncd\/git-volume-git-sensor-0 after 6 tries over 6 s, although StorageClass standard allows volume expansion when read: .*only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize/,
    );
    expect(failed?.message).not.toMatch(/RBAC|permission/i);
    expect(sim.requests().filter((r) => r.method === 'PATCH' && r.path === claimPath).map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(sim.get(refs.claims, ns, claim).spec.resources.requests.storage).toBe('10Gi');
  }, 20_000);

  it('reports "requested, not yet reported" when the volume has not grown by the end of the run', async () => {
    const { sim, plan, run } = await harness({ storageClassCacheLagMs: 0, volumeResizeMs: 60_000 });
    await sim.break('git-sensor-volume-full', { expansion: true });
    const { outcome, progress } = await run(await plan('git-sensor-volume-full', { size: '20Gi' }));
    expect(outcome.status).toBe('completed');
    expect(progress.find((x) => x.index === 1 && x.status === 'done')?.message).toBe(
      'Claim git-volume-git-sensor-0 now requests 20Gi; its capacity still reads 10Gi: requested, not yet reported by the volume; the claim says Resizing. The capacity usually follows within minutes; a claim left at FileSystemResizePending needs the pod that mounts it restarted.',
    );
    expect(sim.get(refs.claims, ns, claim).spec.resources.requests.storage).toBe('20Gi');
    // Honest on the cluster's side too: the volume is still full until the resize completes.
    expect(sim.symptoms()).toEqual(['git-sensor-volume-full']);
  }, 20_000);
});
