import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findEntry } from '../../../src/catalogue/index.js';
import { planStage } from '../../../src/remedies/planner.js';
import { runStep } from '../../../src/remedies/steps/index.js';
import { captureOutput, startDashboardWorld, visibleText, type DashboardWorld } from './world.js';

const worlds: DashboardWorld[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});
async function world(options: Parameters<typeof startDashboardWorld>[0] = {}) {
  const w = await startDashboardWorld(options);
  worlds.push(w);
  return w;
}

const metricsStore = 'http://prometheus-server.monitoring.svc:80';
const params = { metricsStore };
const titles = ['CPU Usage', 'Memory Usage', 'Latency', 'res_status_per_pod'];
const writes = (w: DashboardWorld) => w.fake.calls().filter((c) => c.method !== 'GET');

/** A dashboard where the organisation exists with a data source pointing elsewhere (version 3). */
function seedOrgWithOldDataSource(w: DashboardWorld) {
  const org = w.fake.state.createOrg('devtron-metrics-view');
  const ds = w.fake.state.addDataSource(org, { name: 'Prometheus', url: 'http://old-prometheus:9090', isDefault: true, version: 3 });
  return { org, ds };
}

describe('dashboards-missing: creating the dashboard organisation (guide 7.5, section 4)', () => {
  it('plans what is missing, makes the calls of section 4 in order, verifies, and skips a second time', async () => {
    const w = await world();
    const output = captureOutput();
    const plan = await w.plan('dashboards-missing', 'create-organisation', params);

    expect(plan.blocked).toBeUndefined();
    expect(plan.steps[0]!.lines).toEqual([
      `create organisation "devtron-metrics-view" on ${w.fake.url} (expected id 2), switch admin to it and set its preferences (timezone browser)`,
      `create data source "Prometheus" (prometheus, proxy, default) and set its address: (none) → ${metricsStore}`,
      'import dashboard "CPU Usage" (catalogue 13322 revision 4)',
      'import dashboard "Memory Usage" (catalogue 13320 revision 4)',
      'import dashboard "Latency" (catalogue 13325 revision 4)',
      'import dashboard "res_status_per_pod" (catalogue 13321 revision 6)',
    ]);
    expect(writes(w)).toEqual([]);

    const { outcome, progress } = await w.run(plan);
    expect(outcome).toEqual({ status: 'completed', message: 'All steps done.' });
    expect(progress.find((p) => p.index === 0 && p.status === 'done')?.message).toBe(
      `Organisation 2 ("devtron-metrics-view") has its default data source at ${metricsStore} and the four dashboards.`,
    );
    expect(writes(w).map((c) => `${c.method} ${c.path} ${c.orgHeader ?? '-'} ${c.status}`)).toEqual([
      'POST /api/orgs - 200',
      'POST /api/user/using/2 - 200',
      'PUT /api/org/preferences 2 200',
      'POST /api/datasources 2 200',
      'PUT /api/datasources/1 2 200',
      ...titles.map(() => 'POST /api/dashboards/import 2 200'),
    ]);
    const [createOrg, , preferences, createDs, updateDs] = writes(w);
    expect(createOrg).toMatchObject({ contentType: 'application/json', body: { name: 'devtron-metrics-view' } });
    expect(preferences!.body).toEqual({ homeDashboardId: 0, theme: '', timezone: 'browser' });
    expect(createDs!.body).toEqual({ name: 'Prometheus', type: 'prometheus', access: 'proxy', isDefault: true });
    expect(updateDs!.body).toMatchObject({ id: 1, orgId: 2, name: 'Prometheus', type: 'prometheus', access: 'proxy', url: metricsStore, basicAuth: false, jsonData: {}, version: 1 });

    const org = w.fake.orgNamed('devtron-metrics-view')!;
    expect(org.id).toBe(2);
    expect(org.dataSources).toMatchObject([{ name: 'Prometheus', url: metricsStore, isDefault: true, version: 2 }]);
    expect(org.dashboards.map((d) => d.title).sort()).toEqual([...titles].sort());
    // The import bound the definitions' data source input to the new default data source.
    expect(JSON.stringify(org.dashboards)).not.toContain('${DS_PROMETHEUS}');

    // Planned and run again: everything is in place, so nothing is written twice.
    const again = await w.plan('dashboards-missing', 'create-organisation', params);
    expect(again.steps[0]!.lines).toEqual([
      'organisation "devtron-metrics-view" exists (id 2): not created again',
      `data source "Prometheus" (id 1) already points at ${metricsStore}: unchanged`,
      `the four dashboards are present (${titles.join(', ')}): none imported`,
      'Everything is already in place: this step will be skipped.',
    ]);
    const before = writes(w).length;
    const second = await w.run(again);
    expect(second.progress.find((p) => p.index === 0 && p.status !== 'started')?.status).toBe('skipped');
    // The first plan, approved twice (a double click), is stopped by the drift check: nothing is created again.
    expect((await w.run(plan)).outcome.status).toBe('changed');
    expect(writes(w).length).toBe(before);
    expect(w.fake.state.orgs).toHaveLength(2);

    const seen = visibleText(plan, again, progress, outcome, second, w.fake.calls(), output.stop());
    expect(seen).not.toContain(w.password);
    expect(seen).not.toMatch(/authorization/i);
  });

  it.each([409, 500] as const)('re-reads a data source saved meanwhile and retries the update once (stale version answered %i)', async (status) => {
    const w = await world({ staleVersionStatus: status });
    const { ds } = seedOrgWithOldDataSource(w);
    const plan = await w.plan('dashboards-missing', 'create-organisation', params);
    expect(plan.steps[0]!.lines.slice(0, 2)).toEqual([
      'organisation "devtron-metrics-view" exists (id 2): not created again',
      `data source "Prometheus" (id ${ds.id}) address: http://old-prometheus:9090 → ${metricsStore}`,
    ]);

    // Someone saves the data source between the worker reading it and updating it.
    let bumped = false;
    w.fake.beforeCall(({ method, path }) => {
      if (method === 'PUT' && path === `/api/datasources/${ds.id}` && !bumped) {
        bumped = true;
        ds.version += 1;
      }
    });
    const { outcome, progress } = await w.run(plan);
    expect(outcome.status).toBe('completed');
    const puts = w.fake.calls().filter((c) => c.method === 'PUT' && c.path.startsWith('/api/datasources/'));
    expect(puts.map((c) => [c.status, (c.body as { version: number }).version])).toEqual([
      [status, 3],
      [200, 4],
    ]);
    expect(progress.find((p) => p.status === 'done')?.details).toContain(`data source "Prometheus" (id ${ds.id}) address set to ${metricsStore} (after re-reading a newer version)`);
    expect(ds).toMatchObject({ url: metricsStore, isDefault: true, version: 5 });
  });

  it('stops with a clear failure when the data source keeps changing under the update', async () => {
    const w = await world();
    const { ds } = seedOrgWithOldDataSource(w);
    const plan = await w.plan('dashboards-missing', 'create-organisation', params);
    w.fake.beforeCall(({ method, path }) => {
      if (method === 'PUT' && path === `/api/datasources/${ds.id}`) ds.version += 1;
    });
    const { outcome } = await w.run(plan);
    expect(outcome).toMatchObject({ status: 'failed', message: expect.stringContaining('kept changing under the update ("Reload new version and try again" twice)') });
    expect(w.fake.calls().filter((c) => c.method === 'POST' && c.path === '/api/dashboards/import')).toEqual([]);
  });

  it('uses the organisation created meanwhile (409 "Organization name taken") instead of creating a second one', async () => {
    const w = await world();
    const plan = await w.plan('dashboards-missing', 'create-organisation', params);
    w.fake.beforeCall(({ method, path, state }) => {
      if (method === 'POST' && path === '/api/orgs' && state.orgs.length === 1) state.createOrg('devtron-metrics-view');
    });
    const { outcome, progress } = await w.run(plan);
    expect(outcome.status).toBe('completed');
    expect(progress.find((p) => p.status === 'done')?.details).toContain('organisation "devtron-metrics-view" already existed (409 Organization name taken): using its id 2');
    expect(w.fake.calls().filter((c) => c.path.startsWith('/api/orgs')).map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      'GET /api/orgs 200',
      'GET /api/orgs 200',
      'POST /api/orgs 409',
      'GET /api/orgs/name/devtron-metrics-view 200',
      'GET /api/orgs 200',
    ]);
    expect(w.fake.state.orgs).toHaveLength(2);
  });

  it('says so when organisation 2 is taken, and uses the real id of the one it creates', async () => {
    const w = await world();
    w.fake.state.createOrg('someone-else');
    const plan = await w.plan('dashboards-missing', 'create-organisation', params);
    expect(plan.warnings).toContain('Organisation 2 already exists as "someone-else", so "devtron-metrics-view" will get another id; App Details reads organisation 2.');
    const { progress } = await w.run(plan);
    const done = progress.find((p) => p.status === 'done')!;
    expect(done.message).toContain('Organisation 3 ("devtron-metrics-view")');
    expect(done.details).toContain('note: the organisation\'s id is 3, not 2; the calls used 3, but App Details reads organisation 2');
    expect(w.fake.orgNamed('devtron-metrics-view')!.dataSources).toHaveLength(1);
  });

  it('blocks the plan when the dashboard refuses the password, without ever showing it', async () => {
    const w = await world();
    await w.setSecretKey('GRAFANA_PASSWORD', 'not-the-password');
    const plan = await w.plan('dashboards-missing', 'create-organisation', params);
    expect(plan.blocked).toBe(
      `The metrics dashboard at ${w.fake.url} refused user "admin" with the password from key GRAFANA_PASSWORD of secret devtroncd/devtron-secret (401 Invalid username or password). Check that the secret holds the dashboard's current password.`,
    );
    expect(visibleText(plan, w.fake.calls())).not.toContain('not-the-password');
  });

  it('fails the run when the password stops working after the plan, without showing either password', async () => {
    const w = await world();
    const plan = await w.plan('dashboards-missing', 'create-organisation', params);
    w.fake.setPassword('rotated-password');
    const result = await runStep({ ...w.ctx, params }, plan.steps[0]!);
    expect(result).toMatchObject({ status: 'failed', message: expect.stringContaining('refused user "admin" with the password from key GRAFANA_PASSWORD of secret devtroncd/devtron-secret (401 Invalid username or password)') });
    expect(visibleText(result)).not.toContain(w.password);
    expect(writes(w).map((c) => c.status)).toEqual([401]);
  });

  it('blocks the plan, naming the secret and key, when the password key is absent', async () => {
    const w = await world();
    await w.setSecretKey('GRAFANA_PASSWORD', undefined);
    const plan = await w.plan('dashboards-missing', 'create-organisation', params);
    expect(plan.blocked).toBe('The platform secret devtroncd/devtron-secret has no key GRAFANA_PASSWORD; set the cluster\'s password key name or add the key.');
    expect(w.fake.calls()).toEqual([]);
  });

  it('blocks the plan and calls nothing when a cloud metadata address reaches the worker as the metrics store', async () => {
    const w = await world();
    const plan = await w.plan('dashboards-missing', 'create-organisation', { metricsStore: 'http://[::ffff:169.254.169.254]/latest/meta-data/' });
    expect(plan.blocked).toBe('The metrics store address is refused: [::ffff:a9fe:a9fe] (169.254.169.254) is a cloud metadata address.');
    expect(w.fake.calls()).toEqual([]);
  });

  it('blocks the plan with the address and the call when the dashboard cannot be reached', async () => {
    const w = await world();
    const port = await freePort();
    const plan = await planWithDashboardAt(w, `http://admin:secret-in-url@127.0.0.1:${port}/grafana`);
    expect(plan.blocked).toBe(`Cannot reach the metrics dashboard at http://127.0.0.1:${port}/grafana (ECONNREFUSED) during GET /api/orgs.`);
  });
});

/** A loopback port nothing listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Plans the repair with the cluster's dashboard address set to another one. */
async function planWithDashboardAt(w: DashboardWorld, dashboardUrl: string) {
  const entry = findEntry('dashboards-missing')!;
  return planStage({ ...w.ctx, names: { ...w.ctx.names, dashboardUrl } }, { requestId: 'r', cluster: 'sim', entry, stage: entry.stages[1]!, params });
}
