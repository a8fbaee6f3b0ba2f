import { describe, expect, it } from 'vitest';
import { harness, linesOf, manifestServer, refs } from './support.js';

const ns = 'devtroncd';

describe('install-jobs-failed (entry 1): delete the failed installer jobs, apply the migrator manifest', () => {
  it('plans the failed job for deletion and the manifest object by object, runs, and the jobs complete', async () => {
    const manifests = await manifestServer();
    const { sim, plan, run } = await harness({ manifestBaseUrl: manifests.url });
    await sim.break('install-jobs-failed');
    expect(sim.symptoms()).toEqual(['install-jobs-failed']);
    const failedUid = sim.get(refs.jobs, ns, 'postgresql-migrate-devtron').metadata.uid;

    const p = await plan('install-jobs-failed');
    expect(p.blocked).toBeUndefined();
    const lines = linesOf(p);
    expect(lines).toMatch(/delete Job `devtroncd\/postgresql-migrate-devtron` \(0\/1 completions, pod postgresql-migrate-devtron-\w+ Failed\) and its pods/);
    expect(lines).toContain('leave out Secret `postgresql-migrator` (the guide removes it from the manifest)');
    expect(lines).toContain('Job `devtroncd/postgresql-migrate-devtron`: failed: create again once the step before has deleted it');
    expect(lines).toContain('Job `devtroncd/postgresql-migrate-casbin`: exists (complete or still running): left as is, a Job cannot be changed in place');
    expect(lines).toContain('not applied: CronJob `app-sync-cronjob` (batch/v1beta1)');
    expect(p.steps[1]!.targets).toEqual([expect.objectContaining({ kind: 'Job', name: 'postgresql-migrate-devtron', uid: failedUid, pin: expect.stringMatching(/^manifest sha256 [0-9a-f]{16}$/) })]);
    // The dry runs created nothing.
    expect(sim.get(refs.secrets, ns, 'postgresql-migrator')).toBeUndefined();

    const { outcome, progress } = await run(p);
    expect(outcome).toEqual({ status: 'completed', message: 'All steps done.' });
    expect(progress.find((x) => x.index === 1 && x.status === 'done')?.details).toEqual(['created Job postgresql-migrate-devtron']);
    await sim.settle();
    const job = sim.get(refs.jobs, ns, 'postgresql-migrate-devtron');
    expect(job.metadata.uid).not.toBe(failedUid);
    expect(job.status.succeeded).toBe(1);
    // The failed pod went with its job (propagation Background), and the excluded secret was never created.
    expect(sim.list(refs.pods, ns, 'job-name=postgresql-migrate-devtron').every((pod) => pod.status.phase === 'Succeeded')).toBe(true);
    expect(sim.get(refs.secrets, ns, 'postgresql-migrator')).toBeUndefined();
    expect(sim.symptoms()).toEqual([]);
  });

  it('leaves a job whose pod still runs alone, and blocks when every incomplete job still runs', async () => {
    const manifests = await manifestServer();
    const h = await harness({ manifestBaseUrl: manifests.url });
    await h.sim.break('install-jobs-failed', { running: 'also' });
    const both = await h.plan('install-jobs-failed');
    expect(linesOf(both)).toMatch(/Job `devtroncd\/postgresql-migrate-casbin` \(0\/1, pod postgresql-migrate-casbin-\w+ Running\): still running — wait; left alone/);
    expect(both.steps[0]!.targets.map((t) => t.name)).toEqual(['postgresql-migrate-devtron']);

    const only = await harness({ manifestBaseUrl: manifests.url });
    await only.sim.break('install-jobs-failed', { running: 'only' });
    const waiting = await only.plan('install-jobs-failed');
    expect(waiting.blocked).toBe('Every incomplete job in devtroncd still has a running pod (postgresql-migrate-casbin): wait for them to finish, then plan again.');
  });

  it('stops when the manifest changed between the plan and the run, having touched nothing', async () => {
    const manifests = await manifestServer();
    const { sim, plan, run } = await harness({ manifestBaseUrl: manifests.url });
    await sim.break('install-jobs-failed');
    const p = await plan('install-jobs-failed');
    manifests.override('manifests/yamls/migrator.yaml', 'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: something-else\n');
    const deletesBefore = sim.requests().filter((r) => r.method === 'DELETE').length;
    const { outcome } = await run(p);
    expect(outcome.status).toBe('changed');
    expect(outcome.status === 'changed' && outcome.details.join('\n')).toContain('step 2: Job devtroncd/postgresql-migrate-devtron');
    expect(sim.requests().filter((r) => r.method === 'DELETE').length).toBe(deletesBefore);
    expect(sim.symptoms()).toEqual(['install-jobs-failed']);
  });

  it('blocks with the address when the manifest cannot be fetched', async () => {
    const manifests = await manifestServer();
    const { sim, plan } = await harness({ manifestBaseUrl: `${manifests.url}no-such-branch/` });
    await sim.break('install-jobs-failed');
    const p = await plan('install-jobs-failed');
    expect(p.blocked).toBe(`Cannot plan the manifest: fetching ${manifests.url}no-such-branch/manifests/yamls/migrator.yaml answered HTTP 404.`);
  });
});

describe('rollout-crds-outdated (entry 2): apply the current rollout manifest', () => {
  it('updates the outdated CRD after a dry run, leaves the RBAC object to a person, and the symptom clears', async () => {
    const manifests = await manifestServer();
    const { sim, plan, run } = await harness({ manifestBaseUrl: manifests.url });
    await sim.break('rollout-crds-outdated');
    expect(sim.symptoms()).toEqual(['rollout-crds-outdated']);
    const before = sim.get(refs.crds, undefined, 'rollouts.argoproj.io');

    const p = await plan('rollout-crds-outdated');
    expect(linesOf(p)).toContain('CustomResourceDefinition `rollouts.argoproj.io`: exists: update to the manifest');
    expect(linesOf(p)).toContain('not applied: ClusterRole `argo-rollouts` (rbac.authorization.k8s.io/v1)');
    expect(p.warnings).toEqual([expect.stringContaining('ClusterRole argo-rollouts')]);
    expect(sim.get(refs.crds, undefined, 'rollouts.argoproj.io').metadata.resourceVersion).toBe(before.metadata.resourceVersion);

    const { outcome } = await run(p);
    expect(outcome.status).toBe('completed');
    const after = sim.get(refs.crds, undefined, 'rollouts.argoproj.io');
    expect(after.metadata.uid).toBe(before.metadata.uid);
    expect(after.metadata.annotations['controller-gen.kubebuilder.io/version']).toBe('v0.7.0');
    expect(sim.symptoms()).toEqual([]);
  });
});
