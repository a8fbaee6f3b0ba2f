import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { harness, linesOf, refs } from './support.js';

const ns = 'devtroncd';
type Pod = { metadata: { name: string; uid: string; deletionTimestamp?: string } };

/**
 * A pod deleted on a real cluster lingers Terminating (deletionTimestamp set, 30 s grace by default:
 * pkg/registry/core/pod/strategy.go, CheckGracefulDelete) while its ReplicaSet already runs the replacement
 * (FilterActivePods, pkg/controller/controller_utils.go). A plan made meanwhile must not count the
 * Terminating pod: it would delete the fresh replacement too and wait for one Ready pod too many.
 */
describe('deleting pods while an earlier deletion still terminates', () => {
  it("leaves a one-replica Deployment's Terminating pod out of the plan, and the run ends healthy", async () => {
    const h = await harness({ holdTerminatingPods: true });
    await h.sim.break('sso-login');
    const core = h.sim.kubeConfig().makeApiClient(CoreV1Api);
    const [earlier] = h.sim.list<Pod>(refs.pods, ns, 'app=devtron');
    // Someone deleted the main pod a moment ago; its node has not finished stopping it.
    await core.deleteNamespacedPod({ namespace: ns, name: earlier!.metadata.name });
    await h.sim.settle();
    const [replacement] = h.sim.list<Pod>(refs.pods, ns, 'app=devtron').filter((p) => p.metadata.uid !== earlier!.metadata.uid);

    const plan = await h.plan('sso-login');
    const step = plan.steps.find((s) => s.kind === 'deletePods')!;
    expect(step.targets.map((t) => t.uid)).toEqual([replacement!.metadata.uid]);
    expect(linesOf(plan)).toContain(`Pod \`${ns}/${earlier!.metadata.name}\` is already Terminating (deleted earlier): not deleted again`);

    const { outcome, progress } = await h.run(plan);
    expect(outcome.status).toBe('completed');
    expect(progress.find((x) => x.status !== 'started' && /Deleted/.test(x.message))).toMatchObject({ status: 'done', message: 'Deleted 1 pod(s); replacements are Ready with new uids.' });
    const serving = h.sim.list<Pod>(refs.pods, ns, 'app=devtron').filter((p) => !p.metadata.deletionTimestamp);
    expect(serving).toHaveLength(1);
    expect([earlier!.metadata.uid, replacement!.metadata.uid]).not.toContain(serving[0]!.metadata.uid);
    // The earlier pod was not deleted again: one DELETE of it (ours above), one of the replacement (the run's).
    const deletes = h.sim.requests().filter((r) => r.method === 'DELETE').map((r) => r.path.split('/').at(-1));
    expect(deletes).toEqual([earlier!.metadata.name, replacement!.metadata.name]);
    expect(h.sim.symptoms()).toEqual([]);
    // The Deployment's status follows its pods a moment later (its controller's next sync), as on a real cluster.
    await expect.poll(() => h.sim.get(refs.deployments, ns, 'devtron').status, { timeout: 10_000 }).toMatchObject({ replicas: 1, readyReplicas: 1 });
  });

  it('waits for a StatefulSet pod deleted earlier to come back instead of deleting it again', async () => {
    const h = await harness({ holdTerminatingPods: true });
    const core = h.sim.kubeConfig().makeApiClient(CoreV1Api);
    const before = h.sim.get<Pod>(refs.pods, ns, 'git-sensor-0')!;
    await core.deleteNamespacedPod({ namespace: ns, name: 'git-sensor-0' });

    const plan = await h.plan('git-sensor-stuck');
    const step = plan.steps.find((s) => s.kind === 'deletePods')!;
    expect(step.targets).toEqual([]);
    expect(linesOf(plan)).toContain(`Pod \`${ns}/git-sensor-0\` is already Terminating (deleted earlier): not deleted again; the run waits for its replacement`);

    // The node finishes stopping the pod shortly after the approval.
    setTimeout(() => h.sim.holdTermination(false), 200);
    const { outcome, progress } = await h.run(plan);
    expect(outcome.status).toBe('completed');
    expect(progress.filter((x) => x.status !== 'started').map((x) => x.status)).not.toContain('failed');
    const now = h.sim.get<Pod>(refs.pods, ns, 'git-sensor-0')!;
    expect(now.metadata.uid).not.toBe(before.metadata.uid);
    expect(h.sim.requests().filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });
});
