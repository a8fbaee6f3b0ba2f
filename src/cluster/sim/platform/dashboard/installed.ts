import type { PlatformNames } from '../../../../platform-names.js';
import { catalogueDownloads, cpuDashboardRepaired } from './catalogue.js';
import { bindInputs } from './routes.js';
import { DashboardState, type DashboardOrg, type StoredDataSource } from './state.js';

/** The organisation App Details reads (`/grafana?orgId=2`). */
export const appDetailsOrgId = 2;
/** The default data source of that organisation, as guide section 4 names it. */
export const platformDataSourceName = 'Prometheus';
/** The metrics store a standard install's data source points at. */
export const installedMetricsStore = 'http://prometheus-server.monitoring.svc:80';

/**
 * The metrics dashboard of a standard install, and what the platform's main pod knows of it: App
 * Details' organisation (id 2) with its default data source and the four dashboards, their CPU
 * queries already without the `image!=""` filter. The main pod reads the data source's version when it
 * starts and sends it with every update of a cluster; a version older than the dashboard's is refused
 * ("Reload new version and try again", guide entry 8) until the pod starts again.
 */
export class InstalledDashboard {
  readonly state = new DashboardState();
  /** The data source version the running main pod read when it started; undefined before it has. */
  mainPodDataSourceVersion: number | undefined;

  constructor(private readonly names: PlatformNames) {
    this.organise();
    this.mainPodStarted();
  }

  /** What the installer's first run does: organisation 2, its data source, the four dashboards. */
  organise(): void {
    const org = this.state.createOrg(this.names.dashboardOrgName);
    org.preferences = { homeDashboardId: 0, theme: '', timezone: 'browser' };
    this.state.addDataSource(org, { name: platformDataSourceName, type: 'prometheus', access: 'proxy', url: installedMetricsStore, isDefault: true });
    const inputs = [{ name: 'DS_PROMETHEUS', value: platformDataSourceName }];
    for (const [key, definition] of Object.entries(catalogueDownloads)) {
      const model = key === '13322/4' ? cpuDashboardRepaired : definition;
      this.state.saveDashboard(org, { ...bindInputs(model, inputs), id: null }, 0);
    }
  }

  /** App Details' organisation: id 2 with the configured name; undefined when it was never created. */
  appDetailsOrg(): DashboardOrg | undefined {
    const org = this.state.org(appDetailsOrgId);
    return org?.name === this.names.dashboardOrgName ? org : undefined;
  }

  /** The default data source of App Details' organisation. */
  platformDataSource(): StoredDataSource | undefined {
    const org = this.appDetailsOrg();
    return org?.dataSources.find((d) => d.name === platformDataSourceName) ?? org?.dataSources.find((d) => d.isDefault && d.type === 'prometheus');
  }

  /** The main pod (re)started: it reads the data source's current version. */
  mainPodStarted(): void {
    this.mainPodDataSourceVersion = this.platformDataSource()?.version;
  }

  /** Whether the dashboard would refuse the main pod's next update of the data source as stale (entry 8). */
  refusesPlatformUpdate(): boolean {
    const ds = this.platformDataSource();
    return ds !== undefined && this.mainPodDataSourceVersion !== undefined && this.mainPodDataSourceVersion < ds.version;
  }
}
