import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import { startSimulatedCluster, type RequestRecord, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { scan } from '../../src/doctor/index.js';
import { defaultPlatformNames } from '../../src/platform-names.js';
import { workerSubject } from '../../src/remedies/rbac-manifest.js';
import { workerRbac } from '../../src/remedies/rbac.js';
import { fast, present, stateOf } from './support.js';

/**
 * The doctor on a large install (issue 12 item 12), at a size that runs quickly: the timing is
 * `npm run bench -- doctor`'s (bench/RESULTS.md); here, what the scan asks of the API server and what
 * it concludes, with the applications' own troubles all around the platform's.
 */

const size = { pods: 320, jobs: 80, namespaces: 8 };
const policy = { subject: workerSubject(defaultPlatformNames), ...workerRbac(catalogue, defaultPlatformNames) };

async function grown(): Promise<SimulatedCluster> {
  const sim = await startSimulatedCluster({ ...fast, hideMarkers: true, policy, applications: size });
  await sim.settle();
  return sim;
}

// The worker of the simulated cluster reaches its dashboard at the simulator's own address, as npm start configures it.
const doctor = (sim: SimulatedCluster) => scan(new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 10_000 }), { ...sim.names, ...sim.addresses }, catalogue);

/** `GET /api/v1/pods` → list of pods; `…/pods/NAME/log` → a log read; anything else with a name → a get. */
function callsOf(records: readonly RequestRecord[]) {
  const lists: string[] = [];
  const logs: RequestRecord[] = [];
  const gets: string[] = [];
  for (const r of records) {
    const parts = r.path.split('/').filter((p) => p !== '');
    let rest = parts[0] === 'api' ? parts.slice(2) : parts[0] === 'apis' ? parts.slice(3) : undefined;
    if (rest?.[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
    if (rest?.[2] === 'log') logs.push(r);
    else if (rest === undefined || rest.length > 1) gets.push(r.path);
    else lists.push(`${parts[0] === 'apis' ? `${parts[1]}/` : ''}${rest[0]}`);
  }
  return { lists, logs, gets };
}

describe('the doctor on a large install', () => {
  let sim: SimulatedCluster;
  beforeAll(async () => {
    sim = await grown();
  });
  afterAll(() => sim?.close());

  it('grows the cluster with teams’ namespaces, workloads in a busy cluster’s states and a month of events', () => {
    expect(sim.applications).toEqual({ namespaces: 8, deployments: expect.any(Number), pods: 320, jobs: 80, events: 3200 });
    const pods = sim.list({ group: '', version: 'v1', plural: 'pods' }).filter((p) => /-(dev|qa|staging|prod)$/.test(p.metadata.namespace));
    expect(pods).toHaveLength(320);
    const waiting = pods.flatMap((p) => (p.status.containerStatuses ?? []).map((c: { state: { waiting?: { reason: string } } }) => c.state.waiting?.reason)).filter(Boolean);
    expect(new Set(waiting)).toEqual(new Set(['CrashLoopBackOff', 'ImagePullBackOff']));
    expect(pods.filter((p) => p.status.phase === 'Running' && p.status.conditions.some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'False')).length).toBeGreaterThan(0);
    const jobs = sim.list({ group: 'batch', version: 'v1', plural: 'jobs' }).filter((j) => j.metadata.namespace !== 'devtroncd');
    expect(jobs).toHaveLength(80);
    const conditions = jobs.map((j) => (j.status.conditions ?? []).map((c: { type: string }) => c.type).join(','));
    expect(conditions.filter((c) => c.includes('Complete')).length).toBeGreaterThan(60);
    expect(conditions.filter((c) => c.includes('Failed')).length).toBeGreaterThan(0);
    // The Deployment controller's status follows the pods: a crash-looping application is not available.
    const deployments = sim.list({ group: 'apps', version: 'v1', plural: 'deployments' }).filter((d) => d.metadata.namespace.endsWith('-prod'));
    expect(deployments.every((d) => d.status.replicas === d.spec.replicas)).toBe(true);
    expect(deployments.some((d) => d.status.readyReplicas !== d.spec.replicas)).toBe(true);
    const events = sim.list({ group: '', version: 'v1', plural: 'events' });
    const days = (e: { firstTimestamp: string }) => (Date.now() - Date.parse(e.firstTimestamp)) / 86_400_000;
    expect(Math.max(...events.map(days))).toBeGreaterThan(28);
    expect(Math.max(...events.map(days))).toBeLessThanOrEqual(30);
    const warnings = events.filter((e) => e.type === 'Warning').map((e) => e.reason);
    expect(warnings.length / events.length).toBeGreaterThan(0.15);
    expect([...new Set(warnings)]).toEqual(expect.arrayContaining(['BackOff', 'Unhealthy', 'FailedScheduling', 'Failed', 'BackoffLimitExceeded']));
  });

  it('lists each resource kind once, gets only by name, and reads only bounded log tails, whatever the size', async () => {
    const before = sim.requests().length;
    const report = await doctor(sim);
    const { lists, logs, gets } = callsOf(sim.requests().slice(before));
    // The same calls as on the standard install alone (scan.test.ts): the cluster's size adds none.
    expect(lists.sort()).toEqual([
      'apps/deployments',
      'argoproj.io/rollouts',
      'batch/jobs',
      'cloud.google.com/backendconfigs',
      'events',
      'networking.k8s.io/ingresses',
      'pods',
      'services',
    ]);
    // The platform secret is read by name once, for the dashboard's and the database's passwords.
    expect(gets.sort()).toEqual([
      '/api/v1/namespaces/devtroncd/secrets/argocd-secret',
      '/api/v1/namespaces/devtroncd/secrets/devtron-secret',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/rollouts.argoproj.io',
      '/version',
    ]);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((r) => r.path.startsWith('/api/v1/namespaces/devtroncd/pods/') && /tailLines=\d+/.test(r.query) && /limitBytes=\d+/.test(r.query))).toBe(true);
    expect(sim.requests().slice(before).filter((r) => r.status >= 400)).toEqual([]);
    // Crash loops, failing probes, missing image tags and failed jobs of the applications are not the platform's symptoms.
    expect(present(report)).toEqual([]);
    expect(report.findings.filter((f) => f.state === 'unknown' && f.reason !== 'no-detector')).toEqual([]);
  });

  it("finds a broken state among the applications' own troubles, and names only its pods", async () => {
    await sim.break('image-pull-private-registry');
    await sim.settle();
    const report = await doctor(sim);
    expect(present(report)).toEqual(['image-pull-private-registry']);
    const evidence = stateOf(report, 'image-pull-private-registry')?.evidence ?? [];
    expect(evidence.length).toBeGreaterThan(0);
    expect(evidence.map((e) => e.object)).toEqual(evidence.map(() => expect.stringMatching(/^pod\/devtron-demo\/payments-web-/)));
    expect(evidence.map((e) => e.detail).join('\n')).toContain('ImagePullBackOff: image registry.acme-corp.io/payments/web:1.4.2');
  });
});
