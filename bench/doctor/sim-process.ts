/**
 * Child process of the doctor benchmark: a simulated cluster grown to a large install, with the
 * worker's RBAC enforced, in a process of its own (as the API server is another machine), so that
 * the parent's memory and CPU figures are the worker's alone.
 * Argument: JSON `{ pods, jobs, namespaces }`.
 */
import { catalogue } from '../../src/catalogue/index.js';
import { startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { defaultPlatformNames } from '../../src/platform-names.js';
import { workerRbac } from '../../src/remedies/rbac.js';
import { workerSubject } from '../../test/support/stack.js';
import { serveParent } from '../slack/child.mjs';
import type { SimInfo } from './protocol.js';

const size = JSON.parse(process.argv[2] ?? '{}') as { pods: number; jobs: number; namespaces: number };
const t0 = performance.now();
const sim = await startSimulatedCluster({
  recreateDelayMs: 20,
  readyDelayMs: 20,
  hideMarkers: true,
  policy: { subject: workerSubject, ...workerRbac(catalogue, defaultPlatformNames) },
  applications: { pods: size.pods, jobs: size.jobs, namespaces: size.namespaces },
});
const seedMs = performance.now() - t0;
const t1 = performance.now();
await sim.settle();
const settleMs = performance.now() - t1;

/** The size of the lists the doctor reads, as served (the same queries the client sends). */
async function bytes(path: string): Promise<number> {
  const res = await fetch(`${sim.url}${path}`, { headers: { authorization: `Bearer ${sim.token}` } });
  return Buffer.byteLength(await res.text());
}

const count = (plural: string, group = '', version = 'v1') => sim.list({ group, version, plural }).length;
const info: SimInfo = {
  kubeconfig: sim.kubeconfigYaml(),
  // Its dashboard at the simulator's own address, as npm start configures it: the dashboard's detectors read it too.
  names: { ...sim.names, ...sim.addresses },
  seedMs,
  settleMs,
  cluster: {
    pods: count('pods'),
    jobs: count('jobs', 'batch'),
    deployments: count('deployments', 'apps'),
    namespaces: count('namespaces'),
    events: count('events'),
    warnings: sim.list({ group: '', version: 'v1', plural: 'events' }).filter((e: { type?: string }) => e.type === 'Warning').length,
    oldestEventDays: Math.round((Date.now() - Math.min(...sim.list({ group: '', version: 'v1', plural: 'events' }).map((e: { firstTimestamp: string }) => Date.parse(e.firstTimestamp)))) / 86_400_000),
  },
  listBytes: {
    pods: await bytes('/api/v1/pods'),
    warnings: await bytes('/api/v1/events?fieldSelector=type%3DWarning'),
    deployments: await bytes('/apis/apps/v1/deployments'),
  },
};

serveParent(
  {
    requestCount: () => sim.requests().length,
    requestsSince: (from) => sim.requests().slice(from as number),
    cpu: () => process.cpuUsage(),
    async stop() {
      await sim.close();
      setImmediate(() => process.exit(0));
    },
  },
  info,
);
