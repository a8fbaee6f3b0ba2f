/**
 * The real names behind the guide's placeholders, for one cluster.
 * The defaults are those of a standard install of the platform; every one can be changed per cluster
 * (platform-names-schema.ts checks a configuration's values). Free of the schema library on purpose:
 * the catalogue and the command line read these defaults, and must start fast.
 */
const standardInstall = {
  /** {platform_ns}: namespace of the platform's control components. */
  platformNamespace: 'devtroncd',
  /** {ci_ns}: namespace in which build pods run. */
  ciNamespace: 'devtron-ci',
  /** `<platform>-secret`: the platform secret holding the admin password keys. */
  platformSecret: 'devtron-secret',
  /** `app=<platform>`: the main platform pod. */
  mainPodLabel: 'app=devtron',
  /** `app=<event_watcher>`: the build-event watcher pod. */
  eventWatcherLabel: 'app=kubewatch',
  /** The two message broker pods. */
  brokerPods: ['devtron-nats-0', 'devtron-stan-0'],
  databaseStatefulSet: 'postgresql-postgresql',
  databasePod: 'postgresql-postgresql-0',
  databaseInitContainer: 'init-chmod-data',
  databaseContainer: 'postgresql-postgresql',
  gitSensorPod: 'git-sensor-0',
  gitSensorLabel: 'app=git-sensor',
  gitSensorClaim: 'git-volume-git-sensor-0',
  gitopsSecret: 'argocd-secret',
  dexServerLabel: 'app.kubernetes.io/name=argocd-dex-server',
  gitopsServerLabel: 'app.kubernetes.io/name=argocd-server',
  /** {dashboard_url}: the metrics dashboard service, as reached from inside the cluster. */
  dashboardUrl: 'http://devtron-grafana.devtroncd/grafana',
  dashboardUser: 'admin',
  /** The installer custom resource whose `status.sync.data` carries the `LTAG=` version line. */
  installerName: 'installer-devtron',
  /** A ConfigMap in the platform namespace whose `migrator.yaml` / `rollout.yaml` keys entries 1 and 2 apply instead of the bundled manifests. */
  manifestConfigMap: 'platform-medic-manifests',
  /** The chart manager (Helm) release that adopts the platform namespace's resources (entry 18). */
  installerReleaseName: 'devtron',
  /** Key of the platform secret holding the dashboard password (the guide's DASHBOARD_PASSWORD). */
  dashboardPasswordKey: 'GRAFANA_PASSWORD',
  /** {dashboard_url_catalogue}: the public dashboard catalogue the four dashboards are downloaded from. */
  dashboardCatalogueUrl: 'https://grafana.com/api/dashboards',
  /** The dashboard organisation App Details reads (id 2); the platform's documentation names it so. */
  dashboardOrgName: 'devtron-metrics-view',
  /** The platform's PostgreSQL service, as reached from inside the cluster (entry 16). */
  databaseHost: 'postgresql-postgresql.devtroncd',
  databasePort: 5432,
  databaseUser: 'postgres',
  /** Key of the platform secret holding the database password. */
  databasePasswordKey: 'PG_PASSWORD',
};

/** The real names behind the guide's placeholders, for one cluster. */
export type PlatformNames = { -readonly [K in keyof typeof standardInstall]: (typeof standardInstall)[K] } & {
  /**
   * {manifest_url}: a mirror of the platform's repository for entries 1 and 2, `{version}` standing for
   * the installed version. A standard install has none: those entries use the manifests bundled with
   * platform-medic, so the worker needs no internet.
   */
  manifestBaseUrl?: string;
};

/** The names of a standard install. */
export const defaultPlatformNames: PlatformNames = Object.freeze(standardInstall);

/** A key of PlatformNames whose value is one label selector such as `app=devtron`. */
export type LabelName = 'mainPodLabel' | 'eventWatcherLabel' | 'gitSensorLabel' | 'dexServerLabel' | 'gitopsServerLabel';

/** A key of PlatformNames whose value is a namespace. */
export type NamespaceName = 'platformNamespace' | 'ciNamespace';
