import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../src/catalogue/index.js';
import { defaultPlatformNames } from '../../../src/platform-names.js';
import { workerRbac } from '../../../src/remedies/rbac.js';
import { workerSubject } from '../../../src/remedies/rbac-manifest.js';
import { bytesOf, compareQuantities } from '../../../src/quantity.js';
import { harness, refs } from './support.js';

const ns = 'devtroncd';
const claim = 'git-volume-git-sensor-0';

describe('git-sensor-volume-full (entry 24): allow expansion, grow the claim', () => {
  it('changes the storage class, then the claim, each shown before → after, and the volume has room again', async () => {
    // A volume that grows within the run's short look (the resizer and kubelet take 100 ms here).
    const { sim, plan, run } = await harness({ volumeResizeMs: 100 });
    await sim.break('git-sensor-volume-full');
    expect(sim.symptoms()).toEqual(['git-sensor-volume-full']);

    const p = await plan('git-sensor-volume-full', { size: '20Gi' });
    expect(p.blocked).toBeUndefined();
    expect(p.steps[0]!.lines).toEqual([
      'StorageClass `standard` (of claim `git-volume-git-sensor-0`): allowVolumeExpansion false → true (cluster-wide: every claim of this class may then grow)',
    ]);
    expect(p.steps[1]!.lines).toEqual([
      'PersistentVolumeClaim `devtroncd/git-volume-git-sensor-0`: spec.resources.requests.storage `10Gi` → `20Gi` (after the step before allows expansion); capacity now `10Gi`',
    ]);
    expect(p.steps[0]!.targets[0]).toMatchObject({ kind: 'StorageClass', namespace: '', name: 'standard', pin: 'allowVolumeExpansion=false' });

    const { outcome, progress } = await run(p);
    expect(outcome.status).toBe('completed');
    expect(progress.filter((x) => x.status === 'done').map((x) => x.message)).toEqual([
      'StorageClass standard now allows volume expansion.',
      'Claim git-volume-git-sensor-0 grew from 10Gi to 20Gi (capacity 20Gi).',
    ]);
    expect(sim.get(refs.storageClasses, undefined, 'standard').allowVolumeExpansion).toBe(true);
    expect(sim.get(refs.claims, ns, claim).spec.resources.requests.storage).toBe('20Gi');
    expect(sim.symptoms()).toEqual([]);
  });

  it('skips the storage class when it already allows expansion', async () => {
    const { sim, plan, run } = await harness({ volumeResizeMs: 100 });
    await sim.break('git-sensor-volume-full', { expansion: true });
    const p = await plan('git-sensor-volume-full', { size: '1Ti' });
    expect(p.steps[0]!.lines).toEqual(['StorageClass `standard` (of claim `git-volume-git-sensor-0`) already allows volume expansion: nothing to change']);
    const { progress } = await run(p);
    expect(progress.find((x) => x.index === 0 && x.status !== 'started')).toMatchObject({ status: 'skipped', message: 'StorageClass standard already allows volume expansion.' });
    expect(sim.get(refs.claims, ns, claim).spec.resources.requests.storage).toBe('1Ti');
  });

  it('blocks a size that is not larger, comparing units (10240Mi is 10Gi)', async () => {
    const { sim, plan } = await harness();
    await sim.break('git-sensor-volume-full');
    await expect(plan('git-sensor-volume-full', { size: '8Gi' })).resolves.toMatchObject({
      blocked: 'The claim git-volume-git-sensor-0 already requests 10Gi; size=8Gi is not larger (a claim can only grow).',
    });
  });

  it('blocks growing alone when the class does not allow expansion and no earlier step changes it', async () => {
    const { sim, ctx } = await harness();
    await sim.break('git-sensor-volume-full');
    const { planSteps } = await import('../../../src/remedies/planner.js');
    const onlyGrow = { id: 'grow', title: 'grow', steps: [{ kind: 'growClaim' as const, does: 'grow', risk: 'destructive' as const, claim: 'gitSensorClaim' as const, sizeParam: 'size' }] };
    const r = await planSteps({ ...ctx, params: { size: '20Gi' } }, onlyGrow);
    expect(r.blocked).toBe('StorageClass standard of claim git-volume-git-sensor-0 does not allow volume expansion, and nothing in this stage changes that.');
  });

  it('stops when the claim was grown by someone else after the plan', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('git-sensor-volume-full', { expansion: true });
    const p = await plan('git-sensor-volume-full', { size: '20Gi' });
    const { CoreV1Api, PatchStrategy, setHeaderOptions } = await import('@kubernetes/client-node');
    sim.setPolicy(undefined);
    await sim
      .kubeConfig()
      .makeApiClient(CoreV1Api)
      .patchNamespacedPersistentVolumeClaim({ namespace: ns, name: claim, body: { spec: { resources: { requests: { storage: '15Gi' } } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    const { outcome } = await run(p);
    expect(outcome).toMatchObject({ status: 'changed', details: [expect.stringContaining('step 2: PersistentVolumeClaim devtroncd/git-volume-git-sensor-0'), expect.any(String)] });
    expect(sim.get(refs.claims, ns, claim).spec.resources.requests.storage).toBe('15Gi');
  });

  it('reports a verb removed from the generated RBAC as a 403 naming the permission', async () => {
    const rbac = workerRbac(catalogue, defaultPlatformNames);
    // Only growClaim patches the claim: take that verb away.
    const rules = rbac.namespaceRules['devtroncd']!.map((r) => (r.resources[0] === 'persistentvolumeclaims' ? { ...r, verbs: r.verbs.filter((v) => v !== 'patch') } : r));
    const { sim, plan } = await harness({ policy: { subject: workerSubject(defaultPlatformNames), clusterRules: rbac.clusterRules, namespaceRules: { ...rbac.namespaceRules, devtroncd: rules } }, enforceRbac: false });
    await sim.break('git-sensor-volume-full', { expansion: true });
    await expect(plan('git-sensor-volume-full', { size: '20Gi' })).rejects.toThrow(
      'Permission missing for patch persistentvolumeclaim devtroncd/git-volume-git-sensor-0: persistentvolumeclaims "git-volume-git-sensor-0" is forbidden: User "system:serviceaccount:devtroncd:platform-medic-worker" cannot patch resource "persistentvolumeclaims" in API group "" in the namespace "devtroncd". The worker\'s RBAC (deploy/rbac.yaml) does not allow it.',
    );
  });
});

describe('size quantities', () => {
  it('compares binary and decimal units exactly', () => {
    expect(compareQuantities('10240Mi', '10Gi')).toBe(0);
    expect(compareQuantities('1Ti', '1000Gi')).toBe(1);
    expect(compareQuantities('1.5Gi', '1536Mi')).toBe(0);
    expect(compareQuantities('10G', '10Gi')).toBe(-1);
    expect(compareQuantities('20', '10Gi')).toBe(-1);
    expect(bytesOf('10gb')).toBeUndefined();
    expect(bytesOf('8Ei')).toBe(2n ** 63n);
  });
});
