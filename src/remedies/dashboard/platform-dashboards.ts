import type { SearchHit } from './api.js';

/**
 * The four dashboards App Details embeds (platform-facts: ids 13322 rev 4, 13320 rev 4, 13325 rev 4,
 * 13321 rev 6 of the public catalogue). App Details loads them by uid (the platform's dashboard front end
 * builds `/grafana/d-solo/devtron-app-metrics-cpu/cpu-usage?orgId=2&panelId=…` and the like), so the
 * uid is what says a dashboard is there; the title is a fallback for a copy imported under another uid.
 * Which catalogue id carries which uid is read from the downloaded definition at import time; the
 * table's pairing only decides what the plan lists as missing.
 */
export interface PlatformDashboard {
  readonly catalogueId: number;
  readonly revision: number;
  readonly uid: string;
  readonly title: string;
}

export const platformDashboards: readonly PlatformDashboard[] = [
  { catalogueId: 13322, revision: 4, uid: 'devtron-app-metrics-cpu', title: 'CPU Usage' },
  { catalogueId: 13320, revision: 4, uid: 'devtron-app-metrics-memory', title: 'Memory Usage' },
  { catalogueId: 13325, revision: 4, uid: 'devtron-app-metrics-latency', title: 'Latency' },
  { catalogueId: 13321, revision: 6, uid: 'NnFpQOKGk', title: 'res_status_per_pod' },
];

/** The name of the default data source the repair creates (guide section 4). */
export const defaultDataSourceName = 'Prometheus';

/** The search hit that is this platform dashboard: same uid, or else same title. */
export function findPlatformDashboard(hits: readonly SearchHit[], d: PlatformDashboard): SearchHit | undefined {
  return hits.find((h) => h.uid === d.uid) ?? hits.find((h) => h.title === d.title);
}
