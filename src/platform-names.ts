import { z } from 'zod';

/**
 * The real names behind the guide's placeholders, for one cluster.
 * The defaults are those of a standard install of the platform; every one can be changed per cluster.
 */
export const platformNamesSchema = z.object({
  /** {platform_ns}: namespace of the platform's control components. */
  platformNamespace: z.string().min(1).default('devtroncd'),
  /** {ci_ns}: namespace in which build pods run. */
  ciNamespace: z.string().min(1).default('devtron-ci'),
  /** `<platform>-secret`: the platform secret holding the admin password keys. */
  platformSecret: z.string().min(1).default('devtron-secret'),
  /** `app=<platform>`: the main platform pod. */
  mainPodLabel: z.string().min(1).default('app=devtron'),
  /** `app=<event_watcher>`: the build-event watcher pod. */
  eventWatcherLabel: z.string().min(1).default('app=kubewatch'),
  /** The two message broker pods. */
  brokerPods: z.array(z.string().min(1)).min(1).default(['devtron-nats-0', 'devtron-stan-0']),
  databaseStatefulSet: z.string().min(1).default('postgresql-postgresql'),
  databasePod: z.string().min(1).default('postgresql-postgresql-0'),
  databaseInitContainer: z.string().min(1).default('init-chmod-data'),
  databaseContainer: z.string().min(1).default('postgresql-postgresql'),
  gitSensorPod: z.string().min(1).default('git-sensor-0'),
  gitSensorLabel: z.string().min(1).default('app=git-sensor'),
  gitSensorClaim: z.string().min(1).default('git-volume-git-sensor-0'),
  gitopsSecret: z.string().min(1).default('argocd-secret'),
  dexServerLabel: z.string().min(1).default('app.kubernetes.io/name=argocd-dex-server'),
  gitopsServerLabel: z.string().min(1).default('app.kubernetes.io/name=argocd-server'),
  /** {dashboard_url}: the metrics dashboard service, as reached from inside the cluster. */
  dashboardUrl: z.string().url().default('http://devtron-grafana.devtroncd/grafana'),
  dashboardUser: z.string().min(1).default('admin'),
  /** The installer custom resource whose `status.sync.data` carries the `LTAG=` version line. */
  installerName: z.string().min(1).default('installer-devtron'),
  /** {manifest_url}: where the platform's manifests (`manifests/yamls/migrator.yaml`, `rollout.yaml`) are fetched from. */
  manifestBaseUrl: z.string().url().default('https://raw.githubusercontent.com/devtron-labs/devtron/main/'),
  /** The chart manager (Helm) release that adopts the platform namespace's resources (entry 18). */
  installerReleaseName: z.string().min(1).default('devtron'),
  /** Key of the platform secret holding the dashboard password (the guide's DASHBOARD_PASSWORD). */
  dashboardPasswordKey: z.string().min(1).default('GRAFANA_PASSWORD'),
  /** {dashboard_url_catalogue}: the public dashboard catalogue the four dashboards are downloaded from. */
  dashboardCatalogueUrl: z.string().url().default('https://grafana.com/api/dashboards'),
  /** The dashboard organisation App Details reads (id 2); the platform's documentation names it so. */
  dashboardOrgName: z.string().min(1).default('devtron-metrics-view'),
  /** The platform's PostgreSQL service, as reached from inside the cluster (entry 16). */
  databaseHost: z.string().min(1).default('postgresql-postgresql.devtroncd'),
  databasePort: z.coerce.number().int().min(1).max(65535).default(5432),
  databaseUser: z.string().min(1).default('postgres'),
  /** Key of the platform secret holding the database password. */
  databasePasswordKey: z.string().min(1).default('PG_PASSWORD'),
});

/** The real names behind the guide's placeholders, for one cluster. */
export type PlatformNames = z.infer<typeof platformNamesSchema>;

/** The names of a standard install. */
export const defaultPlatformNames: PlatformNames = Object.freeze(platformNamesSchema.parse({}));

/** A key of PlatformNames whose value is one label selector such as `app=devtron`. */
export type LabelName = 'mainPodLabel' | 'eventWatcherLabel' | 'gitSensorLabel' | 'dexServerLabel' | 'gitopsServerLabel';

/** A key of PlatformNames whose value is a namespace. */
export type NamespaceName = 'platformNamespace' | 'ciNamespace';
