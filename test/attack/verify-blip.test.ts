import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { findEntry } from '../../src/catalogue/index.js';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { defaultPlatformNames } from '../../src/platform-names.js';
import { planStage } from '../../src/remedies/planner.js';
import { runPlan } from '../../src/remedies/runner.js';
import type { StepContext } from '../../src/remedies/steps/index.js';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/**
 * An API server that has a bad moment: a proxy in front of the simulated cluster that answers `failures`
 * requests matching `blip` with a 500 Status, as kube-apiserver does when etcd times out, and passes the rest.
 */
async function flakyApi(sim: SimulatedCluster, blip: (method: string, path: string, seen: string[]) => boolean, failures = 1): Promise<{ kubeConfig: KubeConfig; seen: string[] }> {
  const target = new URL(sim.url);
  const seen: string[] = [];
  let left = failures;
  const proxy: Server = createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    if (left > 0 && blip(req.method ?? '', req.url ?? '', seen)) {
      left--;
      seen.push(`${line} -> 500`);
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'etcdserver: request timed out', reason: 'InternalError', code: 500 }));
      return;
    }
    seen.push(line);
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  closing.push(() => new Promise((r) => proxy.close(() => r())));
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'flaky', server: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, skipTLSVerify: true }, { name: 'worker', token: sim.token });
  return { kubeConfig, seen };
}

const gitSensor = findEntry('git-sensor-stuck')!;

describe('a restart whose pod was deleted, while the API server has a bad moment', () => {
  it('still waits for the replacement when one read of it answers 500, and reports the restart done', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    closing.push(() => sim.close());
    // The first read of git-sensor-0 after it was deleted (the check for its replacement) fails once.
    const { kubeConfig, seen } = await flakyApi(sim, (method, path, before) => method === 'GET' && path.startsWith('/api/v1/namespaces/devtroncd/pods/git-sensor-0') && before.some((l) => l.startsWith('DELETE /api/v1/namespaces/devtroncd/pods/git-sensor-0')));
    const ctx: StepContext = { gateway: new ClusterGateway(kubeConfig, { callTimeoutMs: 2_000 }), names: defaultPlatformNames, pollMs: 20, now: () => new Date() };
    const plan = await planStage(ctx, { requestId: 'rblip', cluster: 'sim', entry: gitSensor, stage: gitSensor.stages[0]! });

    const outcome = await runPlan(ctx, plan, 0, async () => undefined);

    expect(seen).toContainEqual(expect.stringMatching(/^GET \/api\/v1\/namespaces\/devtroncd\/pods\/git-sensor-0.* -> 500$/));
    expect(outcome).toMatchObject({ status: 'completed' });
  });
});
