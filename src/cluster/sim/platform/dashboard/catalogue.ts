/**
 * Trimmed definitions of the four dashboards as the public catalogue serves them for download
 * (`/api/dashboards/<id>/revisions/<rev>/download`): an export "for sharing externally", with its
 * `__inputs` data source placeholder, the uid App Details embeds, and panels whose CPU queries carry
 * the `image!=""` filter of guide entry 11 (the memory ones carry it too, and must be left alone).
 */

type Json = Record<string, unknown>;

const input = [{ name: 'DS_PROMETHEUS', label: 'Prometheus', description: '', type: 'datasource', pluginId: 'prometheus', pluginName: 'Prometheus' }];
const templating = {
  list: ['app', 'env', 'new_rollout_pod_template_hash', 'namespace'].map((name) => ({ name, type: 'textbox', query: '', hide: 2 })),
};

function panel(id: number, title: string, targets: string[], y: number): Json {
  return {
    id,
    title,
    type: 'graph',
    datasource: '${DS_PROMETHEUS}',
    gridPos: { h: 8, w: 12, x: (id % 2) * 12, y },
    targets: targets.map((expr, i) => ({ expr, refId: String.fromCharCode(65 + i), legendFormat: '{{pod}}', interval: '' })),
  };
}

function definition(uid: string, title: string, panels: Json[], gnetId: number): Json {
  return { __inputs: input, __requires: [{ type: 'datasource', id: 'prometheus', name: 'Prometheus', version: '1.0.0' }], annotations: { list: [] }, editable: true, gnetId, id: null, uid, title, panels, schemaVersion: 26, tags: ['devtron'], templating, time: { from: 'now-1h', to: 'now' }, version: 4 };
}

const pods = 'pod=~".*-$new_rollout_pod_template_hash-.*", namespace="$namespace"';

/** The CPU dashboard: aggregate and per-pod panels, plus one inside a collapsed row. */
function cpuDefinition(filtered: boolean): Json {
  const image = (quote: string, after = ', ') => (filtered ? `image!=${quote}${quote}${after}` : '');
  return definition(
    'devtron-app-metrics-cpu',
    'CPU Usage',
    [
      panel(2, 'CPU Usage', [`sum(rate(container_cpu_usage_seconds_total{container!="POD", ${image('"')}${pods}}[1m]))`], 0),
      panel(3, 'CPU Usage per pod', [`sum by (pod) (rate(container_cpu_usage_seconds_total{${image("'", ',')}${pods}}[1m]))`, `sum by (pod) (kube_pod_container_resource_limits_cpu_cores{${pods}})`], 0),
      {
        id: 6,
        title: 'Details',
        type: 'row',
        collapsed: true,
        gridPos: { h: 1, w: 24, x: 0, y: 8 },
        panels: [panel(4, 'CPU throttling', [`sum(rate(container_cpu_cfs_throttled_seconds_total{namespace="$namespace", ${image('"')}pod=~".*"}[1m]))`], 9)],
      },
    ],
    13322,
  );
}

/** The CPU dashboard as the catalogue serves it: its CPU queries filter on image!="" (guide entry 11). */
export const cpuDashboard = cpuDefinition(true);
/** The CPU dashboard once entry 11's repair has removed the filter: what a healthy install shows. */
export const cpuDashboardRepaired = cpuDefinition(false);

/** The memory dashboard: its queries carry the same filter, and work; they must stay as they are. */
export const memoryDashboard = definition(
  'devtron-app-metrics-memory',
  'Memory Usage',
  [panel(2, 'Memory Usage', [`sum(container_memory_working_set_bytes{container!="POD", image!="", ${pods}})`], 0), panel(3, 'Memory Usage per pod', [`sum by (pod) (container_memory_working_set_bytes{image!="", ${pods}})`], 0)],
  13320,
);

export const latencyDashboard = definition(
  'devtron-app-metrics-latency',
  'Latency',
  [panel(2, 'Latency', [`histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{${pods}}[1m])))`], 0)],
  13325,
);

export const statusDashboard = definition(
  'NnFpQOKGk',
  'res_status_per_pod',
  [panel(2, 'Status codes', [`sum by (code) (rate(http_requests_total{${pods}}[1m]))`], 0)],
  13321,
);

/** `<id>/<revision>` → definition, as the catalogue serves them. */
export const catalogueDownloads: Readonly<Record<string, Json>> = {
  '13322/4': cpuDashboard,
  '13320/4': memoryDashboard,
  '13325/4': latencyDashboard,
  '13321/6': statusDashboard,
};
