import { describe, expect, it } from 'vitest';
import { harness, linesOf, refs } from './support.js';

const ns = 'devtroncd';
const sts = 'postgresql-postgresql';
type ImagesOf = { spec: { template: { spec: { initContainers: { image: string }[]; containers: { image: string }[] } } } };
const images = (s: ImagesOf | undefined) => [s!.spec.template.spec.initContainers[0]!.image, s!.spec.template.spec.containers[0]!.image];

describe('database-image-pull (entry 9): patch the database images, then restart the crash-looping pods', () => {
  it('shows each image before → after, patches, recreates the pods, and the cluster is healthy', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('database-image-pull');
    expect(sim.symptoms()).toEqual(['database-image-pull']);
    const dbPod = sim.get(refs.pods, ns, 'postgresql-postgresql-0');

    const p = await plan('database-image-pull');
    expect(p.steps[1]!.lines).toEqual([
      'StatefulSet `devtroncd/postgresql-postgresql` init container `init-chmod-data`: image `docker.io/bitnami/minideb:latest` → `quay.io/devtron/minideb:latest`',
      'StatefulSet `devtroncd/postgresql-postgresql` container `postgresql-postgresql`: image `docker.io/bitnami/postgresql:11.3.0-debian-9-r28` → `quay.io/devtron/postgres:11.3.0-debian-9-r28`',
    ]);
    // The crash-looping group holds the main pod but not the database pod, which step 3 deletes by name.
    expect(p.steps[3]!.targets.map((t) => t.name)).toEqual([expect.stringMatching(/^devtron-/)]);
    expect(linesOf(p)).not.toMatch(/delete Pod `devtroncd\/postgresql-postgresql-0`[^\n]*\n[\s\S]*delete Pod `devtroncd\/postgresql-postgresql-0`/);
    // A dry run validated the patch; the stateful set is untouched.
    expect(images(sim.get(refs.statefulSets, ns, sts))).toEqual(['docker.io/bitnami/minideb:latest', 'docker.io/bitnami/postgresql:11.3.0-debian-9-r28']);

    const { outcome, progress } = await run(p);
    expect(outcome).toEqual({ status: 'completed', message: 'All steps done.' });
    expect(progress.find((x) => x.index === 1 && x.status === 'done')?.details).toEqual([
      'init-chmod-data: docker.io/bitnami/minideb:latest → quay.io/devtron/minideb:latest',
      'postgresql-postgresql: docker.io/bitnami/postgresql:11.3.0-debian-9-r28 → quay.io/devtron/postgres:11.3.0-debian-9-r28',
    ]);
    await sim.settle();
    expect(images(sim.get(refs.statefulSets, ns, sts))).toEqual(['quay.io/devtron/minideb:latest', 'quay.io/devtron/postgres:11.3.0-debian-9-r28']);
    const newDb = sim.get(refs.pods, ns, 'postgresql-postgresql-0');
    expect(newDb.metadata.uid).not.toBe(dbPod.metadata.uid);
    expect(newDb.spec.containers[0].image).toBe('quay.io/devtron/postgres:11.3.0-debian-9-r28');
    expect(sim.symptoms()).toEqual([]);
  });

  it('deleting the database pod alone does not help while the stateful set names the old images', async () => {
    const { sim } = await harness();
    await sim.break('database-image-pull');
    const { CoreV1Api } = await import('@kubernetes/client-node');
    sim.setPolicy(undefined);
    await sim.kubeConfig().makeApiClient(CoreV1Api).deleteNamespacedPod({ namespace: ns, name: 'postgresql-postgresql-0' });
    await sim.settle();
    const replacement = sim.get(refs.pods, ns, 'postgresql-postgresql-0');
    expect(replacement.status.containerStatuses[0].state.waiting.reason).toBe('ImagePullBackOff');
    expect(sim.symptoms()).toEqual(['database-image-pull']);
  });

  it('stops, touching nothing, when the images changed after the plan', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('database-image-pull');
    const p = await plan('database-image-pull');
    const admin = sim.kubeConfig();
    const { AppsV1Api, PatchStrategy, setHeaderOptions } = await import('@kubernetes/client-node');
    sim.setPolicy(undefined);
    await admin.makeApiClient(AppsV1Api).patchNamespacedStatefulSet(
      { namespace: ns, name: sts, body: { spec: { template: { spec: { containers: [{ name: sts, image: 'registry.example/postgres:11' }] } } } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    const patches = () => sim.requests().filter((r) => r.method === 'PATCH' && !r.query.includes('dryRun')).length;
    const patchesBefore = patches();
    const { outcome } = await run(p);
    expect(outcome.status).toBe('changed');
    expect(outcome.status === 'changed' && outcome.details.join('\n')).toContain('step 2: StatefulSet devtroncd/postgresql-postgresql');
    expect(patches()).toBe(patchesBefore);
    expect(images(sim.get(refs.statefulSets, ns, sts))[1]).toBe('registry.example/postgres:11');
  });
});
