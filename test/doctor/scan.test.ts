import { readdirSync, readFileSync } from 'node:fs';
import { CoreV1Api } from '@kubernetes/client-node';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import type { CatalogueEntry } from '../../src/catalogue/model.js';
import { knownSecrets } from '../../src/known-secrets.js';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import { faultAnnotation, localDatabase, startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { scan } from '../../src/doctor/index.js';
import { defaultPlatformNames } from '../../src/platform-names.js';
import { workerSubject } from '../../src/remedies/rbac-manifest.js';
import { workerRbac } from '../../src/remedies/rbac.js';
import { createServer, connect, type AddressInfo } from 'node:net';
import type { PlatformNames } from '../../src/platform-names.js';
import { setPlatformSecretKey } from '../remedies/dashboard/world.js';
import { doctor, fast, hiddenSim, present, stateOf } from './support.js';

/** A TCP relay to a local port that counts the connections made through it (the database's, here). */
async function countingProxy(target: number): Promise<{ port: number; connections(): number; close(): void }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    const upstream = connect(target, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const end = () => (socket.destroy(), upstream.destroy());
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, connections: () => count, close: () => void server.close() };
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const platformEntries = catalogue.filter((e) => ['dashboards-missing', 'cpu-graphs-empty', 'database-drop-blocked'].includes(e.id));


const sims: SimulatedCluster[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const track = (sim: SimulatedCluster) => (sims.push(sim), sim);

describe('the scan reads each thing once for every detector', () => {
  it('lists each resource kind once per scope, gets the secret by name, and reads only bounded log tails', async () => {
    const sim = track(await hiddenSim());
    await sim.break('build-logs');
    await sim.settle();
    const before = sim.requests().length;
    const report = await doctor(sim);
    const calls = sim.requests().slice(before).map((r) => `${r.method} ${r.path}`);
    const lists = calls.filter((c) => !c.includes('/log') && !c.includes('/secrets/'));
    // One list per kind and scope: every pod, every warning event and every deployment in one call each
    // (they serve the platform namespaces too), the jobs, rollouts, services, ingresses and backend
    // configurations of the platform namespace, the rollout CRD by name, and the server's version.
    expect(lists.sort()).toEqual([
      'GET /api/v1/events',
      'GET /api/v1/namespaces/devtroncd/services',
      'GET /api/v1/pods',
      'GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/rollouts.argoproj.io',
      'GET /apis/apps/v1/deployments',
      'GET /apis/argoproj.io/v1alpha1/namespaces/devtroncd/rollouts',
      'GET /apis/batch/v1/namespaces/devtroncd/jobs',
      'GET /apis/cloud.google.com/v1/namespaces/devtroncd/backendconfigs',
      'GET /apis/networking.k8s.io/v1/namespaces/devtroncd/ingresses',
      'GET /version',
    ]);
    // The certificate's secret, and the platform secret once for both the dashboard's and the database's passwords.
    expect(calls.filter((c) => c.includes('/secrets')).sort()).toEqual(['GET /api/v1/namespaces/devtroncd/secrets/argocd-secret', 'GET /api/v1/namespaces/devtroncd/secrets/devtron-secret']);
    const logs = sim.requests().slice(before).filter((r) => r.path.endsWith('/log'));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((r) => r.path.startsWith('/api/v1/namespaces/devtroncd/pods/') && /tailLines=\d+/.test(r.query))).toBe(true);
    expect(present(report)).toEqual(['build-logs']);
  });

  it('reads the dashboard and the database once per scan, whatever number of detectors asks', async () => {
    const sim = track(await startSimulatedCluster({ ...fast, hideMarkers: true, database: localDatabase }));
    await sim.settle();
    await sim.break('cpu-graphs-empty');
    await sim.break('database-drop-blocked');
    const proxy = await countingProxy(localDatabase.port);
    const names = { ...sim.names, ...sim.addresses, databasePort: proxy.port };
    for (const round of [1, 2]) {
      const before = sim.dashboard.calls().length;
      const secretsBefore = sim.requests().length;
      // Each entry twice: the scan merges their reads, and each scan reads once.
      const report = await scan(new ClusterGateway(sim.kubeConfig()), names, [...platformEntries, ...platformEntries]);
      expect(present(report)).toEqual(['cpu-graphs-empty', 'database-drop-blocked', 'cpu-graphs-empty', 'database-drop-blocked']);
      const calls = sim.dashboard.calls().slice(before).map((c) => `${c.method} ${decodeURIComponent(c.path)} ${c.orgHeader ?? '-'} ${c.status}`);
      expect(calls.sort()).toEqual([
        'GET /api/dashboards/uid/devtron-app-metrics-cpu 2 200',
        'GET /api/datasources 2 200',
        'GET /api/datasources/proxy/1/api/v1/query?query=count(container_cpu_usage_seconds_total) 2 200',
        'GET /api/datasources/proxy/1/api/v1/query?query=count(container_cpu_usage_seconds_total{image!=""}) 2 200',
        'GET /api/orgs - 200',
        'GET /api/search?type=dash-db&limit=5000 2 200',
      ]);
      expect(proxy.connections(), `scan ${round}`).toBe(round);
      expect(sim.requests().slice(secretsBefore).filter((r) => r.path.includes('/secrets/')).map((r) => r.path)).toEqual(['/api/v1/namespaces/devtroncd/secrets/devtron-secret']);
    }
    proxy.close();
  });

  it('says unknown, and why, when the dashboard or the database cannot be read; nothing shown holds their passwords', async () => {
    const sim = track(await startSimulatedCluster({ ...fast, hideMarkers: true, database: localDatabase }));
    await sim.settle();
    await sim.break('database-drop-blocked');
    const gateway = new ClusterGateway(sim.kubeConfig());
    const states = async (names: Partial<PlatformNames>) => {
      const report = await scan(gateway, { ...sim.names, ...sim.addresses, ...names }, platformEntries);
      return report.findings.map((f) => `${f.id}: ${f.state}${f.reason ? ` (${f.reason}) ${f.message}` : ''}`);
    };
    const secret = sim.get({ group: '', version: 'v1', plural: 'secrets' }, 'devtroncd', 'devtron-secret').data as Record<string, string>;
    const passwords = ['GRAFANA_PASSWORD', 'PG_PASSWORD'].map((k) => Buffer.from(secret[k]!, 'base64').toString('utf8'));

    const closed = await closedPort();
    const away = await states({ dashboardUrl: `http://127.0.0.1:${closed}/grafana`, databasePort: closed });
    expect(away).toEqual([
      expect.stringContaining(`dashboards-missing: unknown (unreachable) Cannot reach the metrics dashboard at http://127.0.0.1:${closed}/grafana (ECONNREFUSED)`),
      expect.stringContaining('cpu-graphs-empty: unknown (unreachable) Cannot reach the metrics dashboard'),
      expect.stringContaining(`database-drop-blocked: unknown (unreachable) Cannot reach PostgreSQL at 127.0.0.1:${closed} (ECONNREFUSED)`),
    ]);

    sim.dashboard.setPassword('rotated-since');
    expect((await states({}))[0]).toMatch(/^dashboards-missing: unknown \(forbidden\) The metrics dashboard at \S+ refused user "admin" with the password from key GRAFANA_PASSWORD of secret devtroncd\/devtron-secret \(401/);

    await setPlatformSecretKey(sim, 'GRAFANA_PASSWORD', undefined);
    await setPlatformSecretKey(sim, 'PG_PASSWORD', undefined);
    const noKeys = await states({});
    expect(noKeys).toEqual([
      "dashboards-missing: unknown (not-installed) The platform secret devtroncd/devtron-secret has no key GRAFANA_PASSWORD; set the cluster's password key name or add the key.",
      "cpu-graphs-empty: unknown (not-installed) The platform secret devtroncd/devtron-secret has no key GRAFANA_PASSWORD; set the cluster's password key name or add the key.",
      "database-drop-blocked: unknown (not-installed) The platform secret devtroncd/devtron-secret has no key PG_PASSWORD; set the cluster's password key name or add the key.",
    ]);
    for (const p of passwords) expect(JSON.stringify([away, noKeys])).not.toContain(p);
  });

  it('says unknown, and why, where a read is forbidden, and still answers the rest', async () => {
    const rbac = workerRbac(catalogue, defaultPlatformNames);
    const withoutEvents = {
      clusterRules: rbac.clusterRules.filter((r) => !r.resources.includes('events')),
      namespaceRules: { ...rbac.namespaceRules, devtroncd: rbac.namespaceRules['devtroncd']!.filter((r) => !r.resources.includes('events')) },
    };
    const sim = track(await startSimulatedCluster({ ...fast, hideMarkers: true, policy: { subject: workerSubject(defaultPlatformNames), ...withoutEvents } }));
    await sim.break('install-jobs-failed');
    await sim.settle();
    const report = await scan(new ClusterGateway(sim.kubeConfig()), sim.names, catalogue);
    expect(stateOf(report, 'database-image-pull')).toMatchObject({ state: 'unknown', reason: 'forbidden', message: expect.stringContaining('list events') });
    expect(stateOf(report, 'image-pull-private-registry')).toMatchObject({ state: 'unknown', reason: 'forbidden' });
    expect(present(report)).toEqual(['install-jobs-failed']);
  });

  it('falls back to the platform namespaces where the whole cluster may not be listed', async () => {
    const rbac = workerRbac(catalogue, defaultPlatformNames);
    const noClusterWide = { ...rbac, clusterRules: rbac.clusterRules.filter((r) => !r.resources.includes('events') && !r.resources.includes('pods')) };
    const sim = track(await startSimulatedCluster({ ...fast, hideMarkers: true, policy: { subject: workerSubject(defaultPlatformNames), ...noClusterWide } }));
    await sim.break('database-image-pull');
    await sim.settle();
    const report = await scan(new ClusterGateway(sim.kubeConfig()), sim.names, catalogue);
    expect(present(report)).toEqual(['database-image-pull']);
    expect(stateOf(report, 'image-pull-private-registry')).toMatchObject({ state: 'unknown', reason: 'forbidden' });
    expect(stateOf(report, 'build-logs')?.state).toBe('absent');
  });

  it('redacts evidence: secret-looking values and every secret value the worker has read', async () => {
    const sim = track(await hiddenSim());
    const image = sim.list({ group: '', version: 'v1', plural: 'pods' }, 'devtroncd', 'app=devtron')[0].spec.containers[0].image as string;
    knownSecrets.add(image);
    const entry = { ...catalogue[0]!, id: 'probe', detector: { kind: 'logLines', namespace: 'platformNamespace', sources: [{ label: 'mainPodLabel' }], lines: ['starting'] } } as CatalogueEntry;
    const report = await scan(new ClusterGateway(sim.kubeConfig()), sim.names, [entry]);
    const shown = JSON.stringify(report.findings[0]);
    expect(shown).toContain('[redacted]');
    expect(shown).not.toContain(image);
  });

  it('says unreachable when the cluster does not answer', async () => {
    const sim = track(await hiddenSim());
    const kc = sim.kubeConfig();
    await sim.close();
    const report = await scan(new ClusterGateway(kc, { callTimeoutMs: 2_000 }), sim.names, catalogue);
    expect(stateOf(report, 'install-jobs-failed')).toMatchObject({ state: 'unknown', reason: 'unreachable' });
    expect(stateOf(report, 'stale-session-cookie')?.state).toBe('not-observable');
  });
});

describe("the simulator's fault annotation never reaches a detector", () => {
  it('is hidden from every read of the API when hideMarkers is set, while the simulator still keeps it', async () => {
    const sim = track(await hiddenSim());
    await sim.break('git-sensor-stuck');
    await sim.settle();
    expect(JSON.stringify(sim.get({ group: '', version: 'v1', plural: 'pods' }, 'devtroncd', 'git-sensor-0'))).toContain(faultAnnotation);
    for (const path of ['/api/v1/namespaces/devtroncd/pods/git-sensor-0', '/api/v1/pods', '/api/v1/namespaces/devtroncd/pods?watch=false']) {
      const res = await fetch(`${sim.url}${path}`, { headers: { authorization: `Bearer ${sim.token}` } });
      expect(await res.text(), path).not.toContain(faultAnnotation);
    }
  });

  it('survives a client writing back an object it read without it (PUT)', async () => {
    const sim = track(await hiddenSim());
    await sim.break('git-sensor-stuck');
    await sim.settle();
    const core = sim.kubeConfig().makeApiClient(CoreV1Api);
    const pod = await core.readNamespacedPod({ namespace: 'devtroncd', name: 'git-sensor-0' });
    expect(pod.metadata?.annotations?.[faultAnnotation]).toBeUndefined();
    await core.replaceNamespacedPod({ namespace: 'devtroncd', name: 'git-sensor-0', body: { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata?.labels, touched: 'yes' } } } });
    expect(sim.get({ group: '', version: 'v1', plural: 'pods' }, 'devtroncd', 'git-sensor-0').metadata.labels.touched).toBe('yes');
    expect(sim.symptoms()).toEqual(['git-sensor-stuck']);
  });

  it('is named nowhere in the doctor or its reads', () => {
    const root = join(import.meta.dirname, '../../src');
    const files = [...readdirSync(join(root, 'doctor'), { recursive: true, encoding: 'utf8' }).map((f) => join(root, 'doctor', f)), join(root, 'cluster/gateway/observe.ts')].filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text, f).not.toContain('sim.platform-medic.dev');
      expect(text, f).not.toMatch(/from '[./]*cluster\/sim|from '\.\.\/sim/);
    }
  });

  it('does not change any finding when it is shown: the detectors judge from the real signals alone', async () => {
    for (const id of ['build-logs', 'database-image-pull', 'image-pull-private-registry']) {
      const shown = track(await startSimulatedCluster(fast));
      const hidden = track(await hiddenSim());
      for (const sim of [shown, hidden]) {
        await sim.break(id);
        await sim.settle();
      }
      const states = async (sim: SimulatedCluster) => (await doctor(sim)).findings.map((f) => `${f.id}:${f.state}`);
      expect(await states(hidden), id).toEqual(await states(shown));
    }
  });
});
