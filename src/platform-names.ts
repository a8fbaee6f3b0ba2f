import { z } from 'zod';

/**
 * The real names behind the guide's placeholders, for one cluster, each with its description (the
 * README's table of cluster keys is derived from them). The defaults are those of a standard install
 * of the platform; every one can be changed per cluster.
 */
export const platformNamesSchema = z.object({
  platformNamespace: z.string().min(1).default('devtroncd').describe('`{platform_ns}`: namespace of the platform\'s control components'),
  ciNamespace: z.string().min(1).default('devtron-ci').describe('`{ci_ns}`: namespace in which build pods run'),
  platformSecret: z.string().min(1).default('devtron-secret').describe('`<platform>-secret`: the platform secret holding the admin password keys'),
  mainPodLabel: z.string().min(1).default('app=devtron').describe('`app=<platform>`: label of the main platform pod'),
  eventWatcherLabel: z.string().min(1).default('app=kubewatch').describe('`app=<event_watcher>`: label of the build-event watcher pod'),
  brokerPods: z.array(z.string().min(1)).min(1).default(['devtron-nats-0', 'devtron-stan-0']).describe('the two message broker pods'),
  databaseStatefulSet: z.string().min(1).default('postgresql-postgresql').describe('the platform database\'s StatefulSet'),
  databasePod: z.string().min(1).default('postgresql-postgresql-0').describe('the platform database\'s pod'),
  databaseInitContainer: z.string().min(1).default('init-chmod-data').describe('the database pod\'s init container whose image the guide replaces (entry 7.9)'),
  databaseContainer: z.string().min(1).default('postgresql-postgresql').describe('the database pod\'s main container'),
  gitSensorPod: z.string().min(1).default('git-sensor-0').describe('the git-sensor pod'),
  gitSensorLabel: z.string().min(1).default('app=git-sensor').describe('label of the git-sensor pod'),
  gitSensorClaim: z.string().min(1).default('git-volume-git-sensor-0').describe('the git-sensor\'s volume claim (entry 7.24)'),
  gitopsSecret: z.string().min(1).default('argocd-secret').describe('the GitOps controller\'s secret (its admin password and TLS certificate)'),
  dexServerLabel: z.string().min(1).default('app.kubernetes.io/name=argocd-dex-server').describe('label of the SSO (dex) server pod'),
  gitopsServerLabel: z.string().min(1).default('app.kubernetes.io/name=argocd-server').describe('label of the GitOps server pod'),
  dashboardUrl: z.string().url().default('http://devtron-grafana.devtroncd/grafana').describe('`{dashboard_url}`: the metrics dashboard service, as reached from inside the cluster'),
  dashboardUser: z.string().min(1).default('admin').describe('the metrics dashboard\'s admin user'),
  installerName: z.string().min(1).default('installer-devtron').describe('the installer custom resource whose `status.sync.data` carries the `LTAG=` version line'),
  manifestBaseUrl: z
    .string()
    .url()
    .optional()
    .describe('`{manifest_url}`: a mirror of the platform\'s repository that entries 1 and 2 fetch `manifests/yamls/migrator.yaml` and `rollout.yaml` from, `{version}` standing for the installed version (e.g. `https://mirror.example.com/devtron/{version}/`); unset, they use the manifests bundled with platform-medic (see docs/operations.md)'),
  manifestConfigMap: z.string().min(1).default('platform-medic-manifests').describe('a ConfigMap in the platform namespace whose `migrator.yaml` / `rollout.yaml` keys, when present, entries 1 and 2 apply instead of the bundled manifests'),
  installerReleaseName: z.string().min(1).default('devtron').describe('the chart manager (Helm) release that adopts the platform namespace\'s resources (entry 7.18)'),
  dashboardPasswordKey: z.string().min(1).default('GRAFANA_PASSWORD').describe('key of the platform secret holding the dashboard password (the guide\'s DASHBOARD_PASSWORD)'),
  dashboardCatalogueUrl: z.string().url().default('https://grafana.com/api/dashboards').describe('`{dashboard_url_catalogue}`: the public dashboard catalogue the four dashboards are downloaded from'),
  dashboardOrgName: z.string().min(1).default('devtron-metrics-view').describe('the dashboard organisation App Details reads (id 2)'),
  databaseHost: z.string().min(1).default('postgresql-postgresql.devtroncd').describe('the platform\'s PostgreSQL service, as reached from inside the cluster (entry 7.16)'),
  databasePort: z.coerce.number().int().min(1).max(65535).default(5432).describe('the platform\'s PostgreSQL port'),
  databaseUser: z.string().min(1).default('postgres').describe('the platform\'s PostgreSQL user'),
  databasePasswordKey: z.string().min(1).default('PG_PASSWORD').describe('key of the platform secret holding the database password'),
});

/** The real names behind the guide's placeholders, for one cluster. */
export type PlatformNames = z.infer<typeof platformNamesSchema>;

/** The names of a standard install. */
export const defaultPlatformNames: PlatformNames = Object.freeze(platformNamesSchema.parse({}));

/** A key of PlatformNames whose value is one label selector such as `app=devtron`. */
export type LabelName = 'mainPodLabel' | 'eventWatcherLabel' | 'gitSensorLabel' | 'dexServerLabel' | 'gitopsServerLabel';

/** A key of PlatformNames whose value is a namespace. */
export type NamespaceName = 'platformNamespace' | 'ciNamespace';
