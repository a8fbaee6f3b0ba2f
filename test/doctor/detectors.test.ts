import { describe, expect, it } from 'vitest';
import type { CatalogueEntry } from '../../src/catalogue/model.js';
import { findEntry } from '../../src/catalogue/index.js';
import type { PodState, ServiceState } from '../../src/cluster/gateway.js';
import { Unreadable, type Snapshot } from '../../src/doctor/detectors/detector.js';
import { detect } from '../../src/doctor/detectors/registry.js';
import { defaultPlatformNames } from '../../src/platform-names.js';

const now = new Date('2026-11-22T12:00:00Z');

/** A snapshot of the given answers; a read it was not given fails as a bug would. */
function snapshot(over: Partial<Snapshot>): Snapshot {
  const missing = () => {
    throw new Error('not given');
  };
  return {
    names: defaultPlatformNames,
    now,
    pods: missing,
    jobs: missing,
    warnings: missing,
    custom: missing,
    certificate: missing,
    logs: missing,
    deployments: missing,
    ingresses: missing,
    services: missing,
    backendConfigs: missing,
    serverVersion: missing,
    crd: missing,
    dashboardOrgs: missing,
    dashboardDataSources: missing,
    dashboards: missing,
    dashboardModel: missing,
    seriesCount: missing,
    databaseSessions: missing,
    ...over,
  };
}

const detectorOf = (id: string) => (findEntry(id) as CatalogueEntry).detector!;

const pod = (over: Partial<PodState>): PodState => ({ namespace: 'devtroncd', name: 'p', labels: {}, phase: 'Running', createdAt: '2026-11-22T11:00:00Z', containers: [], logContainers: ['c'], ...over });

describe('detectors judge from the snapshot alone', () => {
  it('gitops-certificate-expired: present within 7 days of notAfter, absent beyond, unknown when tls.crt holds no certificate', () => {
    const d = detectorOf('gitops-certificate-expired');
    const inDays = (n: number) => snapshot({ certificate: () => ({ notBefore: '2026-01-01T00:00:00.000Z', notAfter: new Date(now.getTime() + n * 86_400_000).toISOString(), subject: 'CN=argocd' }) });
    expect(detect(d, inDays(3))).toMatchObject({ state: 'present', evidence: [{ object: 'secret/devtroncd/argocd-secret', detail: expect.stringContaining('expires in 3 days') }] });
    expect(detect(d, inDays(30)).state).toBe('absent');
    expect(detect(d, snapshot({ certificate: () => 'unreadable' }))).toMatchObject({ state: 'unknown', reason: 'error' });
  });

  it('rollout-invalid-json: unknown (not installed) without the rollout kind; never shows the annotation text', () => {
    const d = detectorOf('rollout-invalid-json');
    expect(detect(d, snapshot({ custom: () => undefined }))).toMatchObject({ state: 'unknown', reason: 'not-installed' });
    const secret = '{"spec":{"env":{"DB_PASSWORD":"hunter2"},}';
    const verdict = detect(d, snapshot({ custom: () => [{ metadata: { name: 'r', namespace: 'devtroncd', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': secret } } }] }));
    expect(verdict.state).toBe('present');
    expect(JSON.stringify(verdict)).not.toContain('hunter2');
  });

  it('image-pull-private-registry: only pull errors that say the registry refused; database-image-pull: only the database pod', () => {
    const stuck = pod({ namespace: 'shop', name: 'web-1', containers: [{ name: 'web', image: 'r.example/web:1', ready: false, restarts: 0, waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "r.example/web:1"' } }] });
    const event = (message: string) => ({ namespace: 'shop', object: { kind: 'Pod', name: 'web-1' }, type: 'Warning', reason: 'Failed', message, count: 1, lastSeen: now.toISOString() });
    const registry = detectorOf('image-pull-private-registry');
    const withEvent = (m: string) => snapshot({ pods: () => [stuck], warnings: () => [event(m)] });
    expect(detect(registry, withEvent('Failed to pull image "r.example/web:1": rpc error: code = NotFound desc = manifest unknown')).state).toBe('absent');
    expect(detect(registry, withEvent('Failed to pull image "r.example/web:1": ... 403 Forbidden: denied: requested access to the resource is denied'))).toMatchObject({
      state: 'present',
      evidence: [{ object: 'pod/shop/web-1', detail: 'container web ImagePullBackOff: image r.example/web:1' }, { object: 'pod/shop/web-1', detail: expect.stringContaining('denied') }],
    });
    expect(detect(detectorOf('database-image-pull'), snapshot({ pods: () => [stuck], warnings: () => [] })).state).toBe('absent');
  });

  it('build-logs: the broker-loss lines alone are not enough when no build runs', () => {
    const d = detectorOf('build-logs');
    const main = pod({ name: 'devtron-1', labels: { app: 'devtron' } });
    const logs = () => [{ pod: main, container: 'devtron', lines: ['{"level":"error","msg":"Nats Connection got disconnected!"}'] }];
    const idle = detect(d, snapshot({ logs, pods: () => [] }));
    expect(idle.state).toBe('absent');
    expect(idle.state === 'absent' && idle.evidence.at(-1)).toEqual({ object: 'namespace/devtron-ci', detail: 'no build pod running' });
    const busy = detect(d, snapshot({ logs, pods: () => [pod({ namespace: 'devtron-ci', name: 'ci-9' })] }));
    expect(busy.state === 'present' && busy.evidence.at(-1)).toEqual({ object: 'pod/devtron-ci/ci-9', detail: 'build pod running for 60m' });
  });

  it('a read that failed reaches the scan as Unreadable, with its reason', () => {
    const forbidden = snapshot({
      pods: () => [],
      jobs: () => {
        throw new Unreadable('forbidden', 'Permission missing for list jobs in devtroncd');
      },
    });
    expect(() => detect(detectorOf('install-jobs-failed'), forbidden)).toThrow(Unreadable);
  });
});

describe("the signals helper's detectors judge from the snapshot alone", () => {
  const zap = (at: string, msg: string) => `{"level":"info","ts":${Date.parse(at) / 1000},"caller":"git/Watcher.go:114","msg":"${msg}"}`;
  const gitSensor = pod({ name: 'git-sensor-0' });

  it('git-sensor-stuck: three polls started since the last one ended is stuck; a poll under way is not', () => {
    const d = detectorOf('git-sensor-stuck');
    const tail = (lines: string[]) => snapshot({ logs: () => [{ pod: gitSensor, container: 'git-sensor', lines }] });
    const ended = [zap('2026-11-22T11:00:00Z', 'starting git watch thread'), zap('2026-11-22T11:00:03Z', 'stop git watch thread')];
    expect(detect(d, tail([...ended, zap('2026-11-22T11:02:00Z', 'starting git watch thread')])).state).toBe('absent');
    const stuck = tail([...ended, ...['11:02', '11:04', '11:06'].map((t) => zap(`2026-11-22T${t}:00Z`, 'starting git watch thread'))]);
    expect(detect(d, stuck)).toMatchObject({ state: 'present', evidence: [{ object: 'pod/devtroncd/git-sensor-0', detail: expect.stringContaining('3 cycles started') }] });
  });

  it('commits-exit-128 is not claimed when git says the volume is full (entry 24)', () => {
    const d = detectorOf('commits-exit-128');
    const tail = (lines: string[]) => snapshot({ logs: () => [{ pod: gitSensor, container: 'git-sensor', lines }] });
    expect(detect(d, tail(['{"msg":"error in fetching material details ","err":"exit status 128"}'])).state).toBe('present');
    expect(detect(d, tail(['{"msg":"error in git cli operation","msg":"error: No space left on device","err":"exit status 128"}'])).state).toBe('absent');
  });

  it('rollout-stable-rs: a controller below 1.0 only on a cluster of 1.22 or later', () => {
    const d = detectorOf('rollout-stable-rs');
    const at = (minor: number, image: string) =>
      snapshot({
        serverVersion: () => ({ gitVersion: `v1.${minor}.3`, major: 1, minor }),
        deployments: () => [{ namespace: 'argo-rollouts', name: 'argo-rollouts', labels: {}, replicas: 1, readyReplicas: 1, containers: [{ name: 'c', image, args: [] }] }],
      });
    expect(detect(d, at(24, 'quay.io/argoproj/argo-rollouts:v0.13.0')).state).toBe('present');
    expect(detect(d, at(21, 'quay.io/argoproj/argo-rollouts:v0.13.0')).state).toBe('absent');
    expect(detect(d, at(24, 'quay.io/argoproj/argo-rollouts:v1.2.2')).state).toBe('absent');
  });

  it("terminal-disconnects: a gce ingress's platform service needs a BackendConfig above 30 s; other services do not count", () => {
    const d = detectorOf('terminal-disconnects');
    const view = (annotation: string | undefined, timeoutSec?: number) =>
      snapshot({
        ingresses: () => [{ namespace: 'devtroncd', name: 'devtron-ingress', className: 'gce', annotations: {}, backendServices: ['devtron-service', 'devtron-grafana'] }],
        services: (): ServiceState[] => [
          { namespace: 'devtroncd', name: 'devtron-service', selector: { app: 'devtron' }, annotations: annotation ? { 'cloud.google.com/backend-config': annotation } : {} },
          { namespace: 'devtroncd', name: 'devtron-grafana', selector: { 'app.kubernetes.io/name': 'grafana' }, annotations: {} },
        ],
        backendConfigs: () => (timeoutSec === undefined ? [] : [{ namespace: 'devtroncd', name: 'long', timeoutSec }]),
      });
    expect(detect(d, view(undefined))).toMatchObject({ state: 'present', evidence: [{ object: 'service/devtroncd/devtron-service' }] });
    expect(detect(d, view('{"default":"long"}', 30)).state).toBe('present');
    expect(detect(d, view('{"default":"long"}', 1800)).state).toBe('absent');
  });
});

describe("the dashboard's and the database's detectors judge from the snapshot alone", () => {
  const mainOrg = { id: 1, name: 'Main Org.' };
  const metricsView = { id: 2, name: 'devtron-metrics-view' };
  const prometheus = { id: 1, orgId: 2, name: 'Prometheus', type: 'prometheus', access: 'proxy', url: 'http://prometheus-server.monitoring.svc:80', isDefault: true };
  const hit = (uid: string, title: string) => ({ uid, title, type: 'dash-db' });
  const four = [hit('devtron-app-metrics-cpu', 'CPU Usage'), hit('devtron-app-metrics-memory', 'Memory Usage'), hit('devtron-app-metrics-latency', 'Latency'), hit('NnFpQOKGk', 'res_status_per_pod')];

  it('dashboards-missing: no organisation 2, a data source without an address, or a dashboard App Details embeds missing', () => {
    const d = detectorOf('dashboards-missing');
    const view = (orgs: { id: number; name: string }[], sources = [prometheus], hits = four) => snapshot({ dashboardOrgs: () => orgs, dashboardDataSources: () => sources, dashboards: () => hits });
    expect(detect(d, view([mainOrg]))).toEqual({
      state: 'present',
      evidence: [{ object: 'organisation/2', detail: 'missing on the metrics dashboard at http://devtron-grafana.devtroncd/grafana, which has "Main Org." (id 1); App Details reads organisation 2' }],
    });
    expect(detect(d, view([mainOrg, metricsView], [{ ...prometheus, url: '' }], four.filter((h) => h.title !== 'Latency')))).toEqual({
      state: 'present',
      evidence: [
        { object: 'datasource/devtron-metrics-view/Prometheus', detail: 'has no address: it does not point at the metrics store' },
        { object: 'dashboard/devtron-metrics-view/Latency', detail: 'missing (uid devtron-app-metrics-latency): App Details cannot show its panels' },
      ],
    });
    // A data source that is not the default is named without the credentials its address may carry.
    const elsewhere = detect(d, view([mainOrg, metricsView], [{ ...prometheus, url: 'http://reader:s3cret-pw@prometheus:9090', isDefault: false }]));
    expect(elsewhere).toMatchObject({ state: 'present', evidence: [{ detail: 'points at http://prometheus:9090 but is not the default data source the dashboards use' }] });
    expect(JSON.stringify(elsewhere)).not.toContain('s3cret');
    expect(elsewhere).not.toHaveProperty('fixParams');
    // Without credentials, the address it points at is the metrics store the fix line offered names.
    expect(detect(d, view([mainOrg, metricsView], [{ ...prometheus, isDefault: false }]))).toMatchObject({ state: 'present', fixParams: { metricsStore: 'http://prometheus-server.monitoring.svc:80' } });
    // A dashboard imported under another uid is found by its title, as the repair finds it.
    expect(detect(d, view([mainOrg, metricsView], [prometheus], [...four.slice(0, 3), hit('x1', 'res_status_per_pod')])).state).toBe('absent');
  });

  const cpuModel = (filtered: boolean) => ({
    uid: 'devtron-app-metrics-cpu',
    panels: [
      { id: 2, title: 'CPU Usage', targets: [{ refId: 'A', expr: `sum(rate(container_cpu_usage_seconds_total{${filtered ? 'image!="", ' : ''}namespace="$namespace"}[1m]))` }] },
      { id: 3, title: 'Memory Usage', targets: [{ refId: 'A', expr: 'sum(container_memory_working_set_bytes{image!="", namespace="$namespace"})' }] },
    ],
  });

  it("cpu-graphs-empty: the CPU queries' filter, when the metrics store has CPU series and the filter keeps none", () => {
    const d = detectorOf('cpu-graphs-empty');
    const view = (model: Record<string, unknown> | undefined, all: number, kept: number) =>
      snapshot({ dashboardOrgs: () => [mainOrg, metricsView], dashboardModel: () => model, seriesCount: (s) => (s.includes('image!=""') ? kept : all) });
    expect(detect(d, view(cpuModel(true), 12, 0))).toEqual({
      state: 'present',
      evidence: [
        { object: 'dashboard/devtron-metrics-view/CPU Usage/panel 2', detail: '"CPU Usage" query A filters on image!="": sum(rate(container_cpu_usage_seconds_total{image!="", namespace="$namespace"}[1m]))' },
        { object: 'metrics/container_cpu_usage_seconds_total', detail: '12 series in the metrics store, none with an image label: the filtered queries return nothing' },
      ],
    });
    expect(detect(d, view(cpuModel(true), 12, 12))).toMatchObject({ state: 'absent', evidence: [{}, { detail: 'the filter keeps 12 of 12 series: the graphs show' }] });
    expect(detect(d, view(cpuModel(true), 0, 0))).toMatchObject({ state: 'absent', evidence: [{}, { detail: 'no series in the metrics store at all: the filter is not what empties the graphs' }] });
    // Without the filter (or without the dashboard) the metrics store is not asked.
    const unasked = (model: Record<string, unknown> | undefined) => snapshot({ dashboardOrgs: () => [mainOrg], dashboardModel: () => model });
    expect(detect(d, unasked(cpuModel(false)))).toEqual({ state: 'absent', evidence: [{ object: 'dashboard/2/CPU Usage', detail: 'no CPU query filters on image!=""' }] });
    expect(detect(d, unasked(undefined)).state).toBe('absent');
    const storeAway = snapshot({
      dashboardOrgs: () => [mainOrg, metricsView],
      dashboardModel: () => cpuModel(true),
      seriesCount: () => {
        throw new Unreadable('unreachable', 'GET /api/datasources/proxy/1/api/v1/query on the metrics dashboard answered 502.');
      },
    });
    expect(() => detect(d, storeAway)).toThrow(Unreadable);
  });

  it('database-drop-blocked: a refused DROP DATABASE in the database pod\'s log, of a database that still has sessions', () => {
    const d = detectorOf('database-drop-blocked');
    const db = pod({ name: 'postgresql-postgresql-0' });
    const refused = (name: string, prefix = 'database') => [
      `2026-11-22 11:58:00.123 UTC [4242] ERROR:  ${prefix} "${name}" is being accessed by other users`,
      '2026-11-22 11:58:00.123 UTC [4242] DETAIL:  There are 2 other sessions using the database.',
      `2026-11-22 11:58:00.123 UTC [4242] STATEMENT:  DROP DATABASE ${name}`,
    ];
    const view = (lines: string[], sessions?: { database: string; sessions: number; applications: string[] }[]) =>
      snapshot({ logs: () => [{ pod: db, container: 'postgresql-postgresql', lines }], ...(sessions ? { databaseSessions: () => sessions } : {}) });
    expect(detect(d, view(refused('orders_old'), [{ database: 'orders_old', sessions: 2, applications: ['orders-report'] }]))).toEqual({
      state: 'present',
      evidence: [{ object: 'database/postgresql-postgresql.devtroncd:5432/orders_old', detail: 'DROP DATABASE refused at 2026-11-22 11:58:00 UTC: "is being accessed by other users"; 2 sessions still open (application "orders-report")' }],
      // The database its evidence names goes to the fix line offered with it.
      fixParams: { database: 'orders_old' },
    });
    // Two blocked: both are named, and the fix line leaves the choice of which to drop to the person.
    const two = detect(d, view([...refused('orders_old'), ...refused('reports_old')], ['orders_old', 'reports_old'].map((database) => ({ database, sessions: 1, applications: [] }))));
    expect(two).toMatchObject({ state: 'present', evidence: [{ object: expect.stringMatching(/orders_old$/) }, { object: expect.stringMatching(/reports_old$/) }] });
    expect(two).not.toHaveProperty('fixParams');
    expect(detect(d, view(refused('orders_old'), [{ database: 'orders_old', sessions: 0, applications: [] }]))).toMatchObject({ state: 'absent', evidence: [{ detail: 'drop refused at 2026-11-22 11:58:00 UTC; no session is open now, so a drop would succeed' }] });
    expect(detect(d, view(refused('orders_old'), [{ database: 'postgres', sessions: 1, applications: [] }]))).toMatchObject({ state: 'absent', evidence: [{ detail: 'drop refused at 2026-11-22 11:58:00 UTC; the database is gone since' }] });
    // Without a refused drop of a database the remedy may drop, the sessions are not read.
    expect(detect(d, view([]))).toEqual({ state: 'absent', evidence: [] });
    expect(detect(d, view(refused('template_src', 'source database'))).state).toBe('absent');
    expect(detect(d, view(refused('orchestrator')))).toMatchObject({ state: 'absent', evidence: [{ object: 'database/postgresql-postgresql.devtroncd:5432/orchestrator' }] });
    const away = snapshot({
      logs: () => [{ pod: db, container: 'postgresql-postgresql', lines: refused('orders_old') }],
      databaseSessions: () => {
        throw new Unreadable('unreachable', 'Cannot reach PostgreSQL at postgresql-postgresql.devtroncd:5432 (ENOTFOUND) to connect to database "postgres". Is the database pod running?');
      },
    });
    expect(() => detect(d, away)).toThrow(Unreadable);
  });
});

describe("the private registry's pull refusals", () => {
  it('are read as words: a status code inside an image tag, a digest or an account id is no refusal', async () => {
    const { says } = await import('../../src/doctor/detectors/image-pull.js');
    expect(says('Failed to pull image "reg.example.com/app:1.2": unexpected status: 401 Unauthorized', '401')).toBe(true);
    expect(says('pull access denied for app, repository does not exist', 'denied')).toBe(true);
    // The digits of the refusal codes inside other names, and a tag that merely ends in them.
    expect(says('Failed to pull image "140123456789.dkr.ecr.eu-west-1.amazonaws.com/app:v2": not found', '401')).toBe(false);
    expect(says('Failed to pull image "registry.local/app:v403": manifest unknown', '403')).toBe(false);
    expect(says('rpc error: code = NotFound desc = sha256:9f4031abc not found', '403')).toBe(false);
  });
});
