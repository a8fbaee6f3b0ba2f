import { cpuDashboard } from '../dashboard/catalogue.js';
import { platformDataSourceName } from '../dashboard/installed.js';
import { bindInputs } from '../dashboard/routes.js';
import type { FaultEntry, SimView } from '../fault-model.js';

/** The uids of the four dashboards App Details embeds. */
const appDetailsUids = ['devtron-app-metrics-cpu', 'devtron-app-metrics-memory', 'devtron-app-metrics-latency', 'NnFpQOKGk'];
const cpuUid = 'devtron-app-metrics-cpu';

/**
 * Entry 5: the dashboard organisation was never created, so App Details' `/grafana?orgId=2` answers
 * "Not Found". The dashboard is a fresh server's (only "Main Org."); fixed when organisation 2 exists
 * under the configured name with a default prometheus data source and the four dashboards.
 */
export const dashboardsMissing: FaultEntry = {
  entryId: 'dashboards-missing',
  guideEntry: 5,
  breakState: ({ dashboard }) => dashboard.state.reset(),
  present: ({ dashboard }) => {
    const org = dashboard.appDetailsOrg();
    const ds = dashboard.platformDataSource();
    return !org || !ds?.isDefault || ds.url === '' || appDetailsUids.some((uid) => !org.dashboards.some((d) => d.uid === uid));
  },
};

/** The CPU queries of App Details' CPU dashboard that still filter on image (entry 11). */
function filteredCpuQueries({ dashboard }: SimView): number {
  const cpu = dashboard.appDetailsOrg()?.dashboards.find((d) => d.uid === cpuUid);
  const exprs = JSON.stringify(cpu?.model ?? {}).match(/\bcontainer_cpu[a-z_]*\{[^{}]*image!=/g);
  return exprs?.length ?? 0;
}

/**
 * Entry 11: the CPU graphs are empty because the CPU queries filter on `image!=""`, a label the
 * cluster's metrics no longer carry: the CPU dashboard is saved again as the catalogue serves it.
 * Fixed when no CPU query of it holds the filter (the memory queries keep theirs).
 */
export const cpuGraphsEmpty: FaultEntry = {
  entryId: 'cpu-graphs-empty',
  guideEntry: 11,
  breakState: ({ dashboard }) => {
    const org = dashboard.appDetailsOrg();
    const existing = org?.dashboards.find((d) => d.uid === cpuUid);
    if (!org || !existing) throw new Error('cannot break cpu-graphs-empty: App Details has no CPU dashboard (is dashboards-missing broken?)');
    const model = bindInputs(cpuDashboard, [{ name: 'DS_PROMETHEUS', value: platformDataSourceName }]);
    dashboard.state.saveDashboard(org, { ...model, version: existing.version }, existing.folderId, existing);
  },
  present: (view) => filteredCpuQueries(view) > 0,
};

/**
 * Entry 8: someone saved the data source in the dashboard since the main pod started, so the pod's next
 * update of a cluster sends an older version and is refused ("Reload new version and try again").
 * Fixed when the main pod has started again and read the current version.
 */
export const datasourceUpdateFailed: FaultEntry = {
  entryId: 'datasource-update-failed',
  guideEntry: 8,
  breakState: ({ dashboard }) => {
    const ds = dashboard.platformDataSource();
    if (!ds) throw new Error('cannot break datasource-update-failed: App Details has no data source (is dashboards-missing broken?)');
    ds.version += 1;
  },
  present: ({ dashboard }) => dashboard.refusesPlatformUpdate(),
};
