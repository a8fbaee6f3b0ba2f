import { z } from 'zod';
import { withoutCredentials } from '../../remedies/dashboard/client.js';
import { cpuFilterEdits } from '../../remedies/dashboard/cpu-panels.js';
import { carriesCredentials } from '../../remedies/dashboard/endpoint.js';
import { appDetailsOrgId, platformDataSource } from '../../remedies/dashboard/org-inspect.js';
import { findPlatformDashboard, platformDashboards } from '../../remedies/dashboard/platform-dashboards.js';
import { defineDetector, type Evidence, type Snapshot } from './detector.js';
import { clip } from './shown-text.js';

/*
 * The metrics dashboard as App Details uses it: the platform embeds panels of organisation 2
 * (`/grafana/d-solo/<uid>/…?orgId=2&panelId=…`), whose default data source is the cluster's metrics store.
 */

/** An address as evidence may show it: without user and password. */
function shown(url: string): string {
  if (url === '') return '(no address)';
  try {
    return withoutCredentials(url);
  } catch {
    return '(not a URL)';
  }
}

const orgLabel = (snap: Snapshot) => snap.dashboardOrgs().find((o) => o.id === appDetailsOrgId)?.name ?? String(appDetailsOrgId);

/**
 * Guide 7.5: App Details has no dashboards, or "panel with id 2 not found". Present when the dashboard
 * has no organisation 2 (the page `/grafana?orgId=2` answers "Not Found"), when organisation 2 has no
 * default data source with an address, or when one of the four dashboards App Details embeds is missing.
 */
const dashboardOrganisationDetector = z.strictObject({
  kind: z.literal('dashboardOrganisation'),
  /** The fix parameter of the metrics store's address: when organisation 2's data source has one, the fix line offered names it. */
  metricsStoreParam: z.string().min(1).optional(),
});
export type DashboardOrganisationDetector = z.infer<typeof dashboardOrganisationDetector>;

export const dashboardOrganisation = defineDetector({
  kind: 'dashboardOrganisation',
  detector: dashboardOrganisationDetector,
  reads: () => [{ dashboard: 'organisations' }, { dashboard: 'dataSources' }, { dashboard: 'dashboards' }],
  fixParams: (d) => (d.metricsStoreParam ? [d.metricsStoreParam] : []),
  detect(d, snap) {
    const orgs = snap.dashboardOrgs();
    const org = orgs.find((o) => o.id === appDetailsOrgId);
    const where = `the metrics dashboard at ${shown(snap.names.dashboardUrl)}`;
    if (!org) {
      const has = orgs.map((o) => `"${o.name}" (id ${o.id})`).join(', ') || 'no organisation';
      return { state: 'present', evidence: [{ object: `organisation/${appDetailsOrgId}`, detail: `missing on ${where}, which has ${has}; App Details reads organisation ${appDetailsOrgId}` }] };
    }
    const evidence: Evidence[] = [];
    const ds = platformDataSource(snap.dashboardDataSources() ?? []);
    if (!ds) evidence.push({ object: `datasource/${org.name}`, detail: `organisation ${org.id} has no default prometheus data source: the dashboards have no metrics store to read` });
    else if (ds.url === '') evidence.push({ object: `datasource/${org.name}/${ds.name}`, detail: 'has no address: it does not point at the metrics store' });
    else if (!ds.isDefault) evidence.push({ object: `datasource/${org.name}/${ds.name}`, detail: `points at ${shown(ds.url)} but is not the default data source the dashboards use` });
    const hits = snap.dashboards() ?? [];
    for (const d of platformDashboards.filter((p) => !findPlatformDashboard(hits, p))) {
      evidence.push({ object: `dashboard/${org.name}/${d.title}`, detail: `missing (uid ${d.uid}): App Details cannot show its panels` });
    }
    // The address the data source points at is the metrics store registered for the cluster; one with credentials is not repeated.
    const store = ds && ds.url !== '' && !carriesCredentials(ds.url) ? ds.url : undefined;
    if (evidence.length > 0) return { state: 'present', evidence, ...(d.metricsStoreParam && store ? { fixParams: { [d.metricsStoreParam]: store } } : {}) };
    return { state: 'absent', evidence: [{ object: `organisation/${appDetailsOrgId}`, detail: `"${org.name}": data source "${ds?.name}" at ${shown(ds?.url ?? '')} and the four dashboards` }] };
  },
});

/** The dashboard whose CPU panels App Details embeds (uid `devtron-app-metrics-cpu`). */
const cpuDashboard = platformDashboards[0]!;

/**
 * Guide 7.11: the CPU graphs are empty while the memory graphs show, because the CPU queries filter on
 * `image!=""`. Present when a CPU panel of App Details' CPU dashboard holds the filter and the metrics
 * store has series of `metric` but none that the filter keeps: the queries return nothing. The filter on
 * a store whose series carry the label is not the symptom (those graphs show).
 */
const cpuImageFilterDetector = z.strictObject({
  kind: z.literal('cpuImageFilter'),
  /** The CPU metric the panels graph, e.g. container_cpu_usage_seconds_total. */
  metric: z.string().regex(/^[A-Za-z_:][A-Za-z0-9_:]*$/),
});
export type CpuImageFilterDetector = z.infer<typeof cpuImageFilterDetector>;

const filtered = (metric: string) => `${metric}{image!=""}`;
const shortQuery = (expr: string) => clip(expr, 120);

export const cpuImageFilter = defineDetector({
  kind: 'cpuImageFilter',
  detector: cpuImageFilterDetector,
  reads: (d) => [{ dashboard: 'organisations' }, { dashboard: 'model', uid: cpuDashboard.uid }, { dashboard: 'seriesCount', selector: d.metric }, { dashboard: 'seriesCount', selector: filtered(d.metric) }],
  detect(d, snap) {
    const model = snap.dashboardModel(cpuDashboard.uid);
    const object = `dashboard/${orgLabel(snap)}/${cpuDashboard.title}`;
    if (!model) return { state: 'absent', evidence: [{ object, detail: `not in organisation ${appDetailsOrgId} (uid ${cpuDashboard.uid}): no CPU graph to be empty` }] };
    const edits = cpuFilterEdits(model);
    if (edits.length === 0) return { state: 'absent', evidence: [{ object, detail: 'no CPU query filters on image!=""' }] };
    const queries: Evidence[] = edits.map((e) => ({ object: `${object}/panel ${e.panelId}`, detail: `"${e.panelTitle}" query ${e.refId} filters on image!="": ${shortQuery(e.before)}` }));
    const all = snap.seriesCount(d.metric);
    const kept = snap.seriesCount(filtered(d.metric));
    const store = `metrics/${d.metric}`;
    if (all === 0) return { state: 'absent', evidence: [...queries, { object: store, detail: 'no series in the metrics store at all: the filter is not what empties the graphs' }] };
    if (kept > 0) return { state: 'absent', evidence: [...queries, { object: store, detail: `the filter keeps ${kept} of ${all} series: the graphs show` }] };
    return { state: 'present', evidence: [...queries, { object: store, detail: `${all} series in the metrics store, none with an image label: the filtered queries return nothing` }] };
  },
});
