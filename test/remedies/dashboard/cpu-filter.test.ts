import { afterEach, describe, expect, it } from 'vitest';
import { catalogueDownloads } from '../../../src/cluster/sim/platform/dashboard/catalogue.js';
import type { StoredDashboard } from '../../fakes/dashboard-api.js';
import { startDashboardWorld, visibleText, type DashboardWorld } from './world.js';

const worlds: DashboardWorld[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

/** A dashboard as the repair of entry 5 leaves it: organisation 2, its data source, the four dashboards imported. */
async function repairedWorld(): Promise<DashboardWorld> {
  const w = await startDashboardWorld();
  worlds.push(w);
  const org = w.fake.state.createOrg('devtron-metrics-view');
  w.fake.state.addDataSource(org, { name: 'Prometheus', url: 'http://prometheus:9090', isDefault: true });
  for (const definition of Object.values(catalogueDownloads)) {
    const bound = JSON.parse(JSON.stringify(definition).split('${DS_PROMETHEUS}').join('Prometheus')) as Record<string, unknown>;
    delete bound.__inputs;
    w.fake.state.saveDashboard(org, bound, 0);
  }
  return w;
}

type Panel = { id: number; title: string; targets?: { expr: string }[]; panels?: Panel[] };
const queries = (d: StoredDashboard) =>
  (d.model.panels as Panel[]).flatMap((p) => [p, ...(p.panels ?? [])]).flatMap((p) => (p.targets ?? []).map((t) => `${p.title}: ${t.expr}`));
const dashboard = (w: DashboardWorld, uid: string) => w.fake.orgNamed('devtron-metrics-view')!.dashboards.find((d) => d.uid === uid)!;
const pods = 'pod=~".*-$new_rollout_pod_template_hash-.*", namespace="$namespace"';

describe("cpu-graphs-empty: removing image!='' from the CPU panels (guide 7.11)", () => {
  it("shows each CPU query before → after, saves at the planned version, leaves memory panels alone, and skips a second time", async () => {
    const w = await repairedWorld();
    const memoryBefore = queries(dashboard(w, 'devtron-app-metrics-memory'));

    const plan = await w.plan('cpu-graphs-empty', 'remove-filter');
    expect(plan.blocked).toBeUndefined();
    expect(plan.steps[0]!.lines).toEqual([
      `"CPU Usage" › panel "CPU Usage" (id 2) query A: sum(rate(container_cpu_usage_seconds_total{container!="POD", image!="", ${pods}}[1m])) → sum(rate(container_cpu_usage_seconds_total{container!="POD", ${pods}}[1m]))`,
      `"CPU Usage" › panel "CPU Usage per pod" (id 3) query A: sum by (pod) (rate(container_cpu_usage_seconds_total{image!='',${pods}}[1m])) → sum by (pod) (rate(container_cpu_usage_seconds_total{${pods}}[1m]))`,
      '"CPU Usage" › panel "CPU throttling" (id 4) query A: sum(rate(container_cpu_cfs_throttled_seconds_total{namespace="$namespace", image!="", pod=~".*"}[1m])) → sum(rate(container_cpu_cfs_throttled_seconds_total{namespace="$namespace", pod=~".*"}[1m]))',
      'Memory panels and every other matcher are left as they are.',
    ]);
    expect(plan.steps[0]!.targets).toMatchObject([{ kind: 'Dashboard', name: 'CPU Usage', uid: 'devtron-app-metrics-cpu', pin: 'version 1' }]);

    const { outcome, progress } = await w.run(plan);
    expect(outcome.status).toBe('completed');
    expect(progress.find((p) => p.status === 'done')).toMatchObject({
      message: 'Removed image!="" from the CPU queries of 1 dashboard(s); memory panels unchanged.',
      details: ['saved "CPU Usage" (version 1 → 2): 3 CPU queries edited'],
    });
    const saves = w.fake.calls().filter((c) => c.method === 'POST' && c.path === '/api/dashboards/db');
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({ orgHeader: '2', status: 200, body: { overwrite: false, folderId: 0, dashboard: { uid: 'devtron-app-metrics-cpu', version: 1 } } });

    const cpu = dashboard(w, 'devtron-app-metrics-cpu');
    expect(cpu.version).toBe(2);
    expect(queries(cpu).join('\n')).not.toMatch(/image!=/);
    expect(queries(cpu)).toContain(`CPU Usage per pod: sum by (pod) (kube_pod_container_resource_limits_cpu_cores{${pods}})`);
    expect(queries(dashboard(w, 'devtron-app-metrics-memory'))).toEqual(memoryBefore);
    expect(memoryBefore.join('\n')).toContain('image!=""');

    const again = await w.plan('cpu-graphs-empty', 'remove-filter');
    expect(again.steps[0]!.lines).toEqual(['No CPU panel of "CPU Usage", "Memory Usage", "Latency", "res_status_per_pod" filters on image!="": nothing to change, this step will be skipped.']);
    const second = await w.run(again);
    expect(second.progress.find((p) => p.index === 0 && p.status !== 'started')?.status).toBe('skipped');
    expect(w.fake.calls().filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(visibleText(plan, progress, outcome, again, second, w.fake.calls())).not.toContain(w.password);
  });

  it('stops without saving when someone saves the dashboard just before the run does (412 version-mismatch)', async () => {
    const w = await repairedWorld();
    const plan = await w.plan('cpu-graphs-empty', 'remove-filter');
    const cpu = dashboard(w, 'devtron-app-metrics-cpu');
    w.fake.beforeCall(({ method, path }) => {
      if (method === 'POST' && path === '/api/dashboards/db') cpu.version += 1;
    });
    const { outcome } = await w.run(plan);
    expect(outcome).toMatchObject({
      status: 'changed',
      message:
        'Dashboard "CPU Usage" was not saved: the dashboard answered 412 version-mismatch (The dashboard has been changed by someone else), so someone changed it meanwhile. Nothing was saved. Plan again.',
    });
    expect(queries(cpu).join('\n')).toContain('image!=""');
  });

  it('stops before saving when the dashboard changed since the plan', async () => {
    const w = await repairedWorld();
    const plan = await w.plan('cpu-graphs-empty', 'remove-filter');
    const cpu = dashboard(w, 'devtron-app-metrics-cpu');
    w.fake.state.saveDashboard(w.fake.orgNamed('devtron-metrics-view')!, { ...cpu.model, title: 'CPU Usage' }, 0, cpu);
    const { outcome } = await w.run(plan);
    expect(outcome).toMatchObject({ status: 'changed', message: expect.stringContaining('The cluster changed since the plan was approved') });
    expect(w.fake.calls().filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('blocks the plan when the dashboard organisation was never created', async () => {
    const w = await startDashboardWorld();
    worlds.push(w);
    const plan = await w.plan('cpu-graphs-empty', 'remove-filter');
    expect(plan.blocked).toBe('The dashboard organisation "devtron-metrics-view" does not exist, so there are no dashboards to edit; repair it first with dashboards-missing.');
  });
});
