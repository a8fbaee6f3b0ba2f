import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { findEntry } from '../../src/catalogue/index.js';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { defaultPlatformNames } from '../../src/platform-names.js';
import { planStage } from '../../src/remedies/planner.js';
import { runPlan, type StepProgress } from '../../src/remedies/runner.js';
import type { StepContext } from '../../src/remedies/steps/index.js';
import { KubeConfig } from '@kubernetes/client-node';

const sims: SimulatedCluster[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function setUp(policy?: Parameters<typeof startSimulatedCluster>[0] extends infer O ? (O extends { policy?: infer P } ? P : never) : never) {
  const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, ...(policy ? { policy } : {}) });
  sims.push(sim);
  const ctx: StepContext = { gateway: new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 2_000 }), names: defaultPlatformNames, pollMs: 20, now: () => new Date() };
  return { sim, ctx };
}

const gitSensor = findEntry('git-sensor-stuck')!;
const pods = { group: '', version: 'v1', plural: 'pods' };

describe('planning and running a stage against the simulated cluster', () => {
  it('pins the pods by uid, and stops without deleting anything when they changed after the plan', async () => {
    const { sim, ctx } = await setUp();
    const plan = await planStage(ctx, { requestId: 'rtest', cluster: 'sim', entry: gitSensor, stage: gitSensor.stages[0]! });
    const planned = sim.get(pods, 'devtroncd', 'git-sensor-0')!.metadata!.uid!;
    expect(plan.steps[0]).toMatchObject({ kind: 'deletePods', targets: [{ name: 'git-sensor-0', uid: planned }], data: { groups: [{ name: 'git-sensor-0' }] } });

    // Someone restarts git-sensor-0 between the plan and the approval.
    await sim.kubeConfig().makeApiClient(CoreV1Api).deleteNamespacedPod({ namespace: 'devtroncd', name: 'git-sensor-0' });
    await sim.settle();
    const replacement = sim.get(pods, 'devtroncd', 'git-sensor-0')!.metadata!.uid!;
    const deletesBefore = sim.requests().filter((r) => r.method === 'DELETE').length;

    const outcome = await runPlan(ctx, plan, 0, async () => undefined);
    expect(outcome).toMatchObject({ status: 'changed', message: expect.stringContaining('Plan again') });
    expect(outcome.status === 'changed' && outcome.details.join('\n')).toMatch(/step 1: Pod devtroncd\/git-sensor-0 \(as planned: [\w-]+\) is gone or changed[\s\S]*step 1: Pod devtroncd\/git-sensor-0 is new or changed/);
    expect(sim.requests().filter((r) => r.method === 'DELETE').length).toBe(deletesBefore);
    expect(sim.get(pods, 'devtroncd', 'git-sensor-0')!.metadata!.uid).toBe(replacement);
  });

  it('reports a permission the worker lacks as a 403 naming the verb and resource', async () => {
    const { ctx } = await setUp({
      subject: 'system:serviceaccount:devtroncd:platform-medic-worker',
      clusterRules: [],
      namespaceRules: { devtroncd: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] },
    });
    const plan = await planStage(ctx, { requestId: 'rtest', cluster: 'sim', entry: gitSensor, stage: gitSensor.stages[0]! });
    const progress: StepProgress[] = [];
    await expect(runPlan(ctx, plan, 0, async (p) => void progress.push(p))).rejects.toThrow(
      /Permission missing for delete pod devtroncd\/git-sensor-0: .*cannot delete resource "pods" in API group "" in the namespace "devtroncd"/,
    );
  });

  it('reports an unreachable cluster with its address and the call', async () => {
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: 'gone', server: 'http://127.0.0.1:9', skipTLSVerify: true }, { name: 'u', token: 't' });
    const ctx: StepContext = { gateway: new ClusterGateway(kc), names: defaultPlatformNames, pollMs: 20, now: () => new Date() };
    await expect(planStage(ctx, { requestId: 'rtest', cluster: 'gone', entry: gitSensor, stage: gitSensor.stages[0]! })).rejects.toThrow(
      'Cannot reach the Kubernetes API at http://127.0.0.1:9 (ECONNREFUSED) during get pod devtroncd/git-sensor-0.',
    );
  });

  it('ends a run at a wait with where to resume, instead of sleeping', async () => {
    const { ctx } = await setUp();
    const buildLogs = findEntry('build-logs')!;
    const plan = await planStage({ ...ctx, waitOverrideSeconds: 300 }, { requestId: 'rtest', cluster: 'sim', entry: buildLogs, stage: buildLogs.stages[0]! });
    const outcome = await runPlan(ctx, plan, 0, async () => undefined);
    expect(outcome).toMatchObject({ status: 'waiting', resumeFrom: 3, seconds: 300 });
    const rest = await runPlan(ctx, plan, 3, async () => undefined);
    expect(rest).toEqual({ status: 'completed', message: 'All steps done.' });
  });

  it('plans a missing pod as nothing to do, with a warning for the approver', async () => {
    const { ctx } = await setUp();
    const plan = await planStage({ ...ctx, names: { ...defaultPlatformNames, gitSensorPod: 'git-sensor-9' } }, { requestId: 'rtest', cluster: 'sim', entry: gitSensor, stage: gitSensor.stages[0]! });
    expect(plan.warnings).toEqual(['Pod devtroncd/git-sensor-9 does not exist; nothing to restart.']);
  });
});
