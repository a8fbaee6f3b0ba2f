import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';

const ns = 'devtroncd';

/**
 * With a body, kube-apiserver reads DeleteOptions from the body alone (handlers/delete.go), so an option
 * the gateway put in the query next to a body (`?dryRun=All`, `?propagationPolicy=…`) would silently not
 * apply on a real cluster. The simulator records such ignored parameters; every delete the gateway makes
 * must leave none.
 */
describe('the gateway’s deletions', () => {
  let sim: SimulatedCluster;
  let gateway: ClusterGateway;
  beforeEach(async () => {
    sim = await startSimulatedCluster({ recreateDelayMs: 20, readyDelayMs: 20 });
    gateway = new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 3_000 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('put every DeleteOptions field in the body, none in the query beside it', async () => {
    const [pod] = await gateway.listPods(ns, 'app=devtron');
    expect(await gateway.deletePod(ns, pod!.name, pod!.uid)).toBe('deleted');
    const [job] = await gateway.jobs.list(ns);
    expect(await gateway.jobs.delete(ns, job!.name, job!.uid)).toBe('deleted');
    await sim.settle();

    const deletes = sim.requests().filter((r) => r.method === 'DELETE');
    expect(deletes).toHaveLength(2);
    expect(deletes.filter((r) => r.ignoredQuery)).toEqual([]);
    // And what the options asked for happened: the job's pods went with it (Background, from the body).
    expect(sim.list({ group: '', version: 'v1', plural: 'pods' }, ns, `job-name=${job!.name}`)).toEqual([]);
  });
});
