import { z } from 'zod';
import { defaultPlatformNames as d, type PlatformNames } from './platform-names.js';

/**
 * How a configuration's `names` of a cluster are checked; each one defaults to a standard install's,
 * with its description (the README's table of cluster keys is derived from them).
 */
export const platformNamesSchema = z.object({
  platformNamespace: z.string().min(1).default(d.platformNamespace).describe('`{platform_ns}`: namespace of the platform\'s control components'),
  ciNamespace: z.string().min(1).default(d.ciNamespace).describe('`{ci_ns}`: namespace in which build pods run'),
  platformSecret: z.string().min(1).default(d.platformSecret).describe('`<platform>-secret`: the platform secret holding the admin password keys'),
  mainPodLabel: z.string().min(1).default(d.mainPodLabel).describe('`app=<platform>`: label of the main platform pod'),
  eventWatcherLabel: z.string().min(1).default(d.eventWatcherLabel).describe('`app=<event_watcher>`: label of the build-event watcher pod'),
  brokerPods: z.array(z.string().min(1)).min(1).default(d.brokerPods).describe('the two message broker pods'),
  databaseStatefulSet: z.string().min(1).default(d.databaseStatefulSet).describe('the platform database\'s StatefulSet'),
  databasePod: z.string().min(1).default(d.databasePod).describe('the platform database\'s pod'),
  databaseInitContainer: z.string().min(1).default(d.databaseInitContainer).describe('the database pod\'s init container whose image the guide replaces (entry 7.9)'),
  databaseContainer: z.string().min(1).default(d.databaseContainer).describe('the database pod\'s main container'),
  gitSensorPod: z.string().min(1).default(d.gitSensorPod).describe('the git-sensor pod'),
  gitSensorLabel: z.string().min(1).default(d.gitSensorLabel).describe('label of the git-sensor pod'),
  gitSensorClaim: z.string().min(1).default(d.gitSensorClaim).describe('the git-sensor\'s volume claim (entry 7.24)'),
  gitopsSecret: z.string().min(1).default(d.gitopsSecret).describe('the GitOps controller\'s secret (its admin password and TLS certificate)'),
  dexServerLabel: z.string().min(1).default(d.dexServerLabel).describe('label of the SSO (dex) server pod'),
  gitopsServerLabel: z.string().min(1).default(d.gitopsServerLabel).describe('label of the GitOps server pod'),
  dashboardUrl: z.string().url().default(d.dashboardUrl).describe('`{dashboard_url}`: the metrics dashboard service, as reached from inside the cluster'),
  dashboardUser: z.string().min(1).default(d.dashboardUser).describe('the metrics dashboard\'s admin user'),
  installerName: z.string().min(1).default(d.installerName).describe('the installer custom resource whose `status.sync.data` carries the `LTAG=` version line'),
  manifestBaseUrl: z
    .string()
    .url()
    .optional()
    .describe('`{manifest_url}`: a mirror of the platform\'s repository that entries 1 and 2 fetch `manifests/yamls/migrator.yaml` and `rollout.yaml` from, `{version}` standing for the installed version (e.g. `https://mirror.example.com/devtron/{version}/`); unset, they use the manifests bundled with platform-medic (see docs/operations.md)'),
  manifestConfigMap: z.string().min(1).default(d.manifestConfigMap).describe('a ConfigMap in the platform namespace whose `migrator.yaml` / `rollout.yaml` keys, when present, entries 1 and 2 apply instead of the bundled manifests'),
  installerReleaseName: z.string().min(1).default(d.installerReleaseName).describe('the chart manager (Helm) release that adopts the platform namespace\'s resources (entry 7.18)'),
  dashboardPasswordKey: z.string().min(1).default(d.dashboardPasswordKey).describe('key of the platform secret holding the dashboard password (the guide\'s DASHBOARD_PASSWORD)'),
  dashboardCatalogueUrl: z.string().url().default(d.dashboardCatalogueUrl).describe('`{dashboard_url_catalogue}`: the public dashboard catalogue the four dashboards are downloaded from'),
  dashboardOrgName: z.string().min(1).default(d.dashboardOrgName).describe('the dashboard organisation App Details reads (id 2)'),
  databaseHost: z.string().min(1).default(d.databaseHost).describe('the platform\'s PostgreSQL service, as reached from inside the cluster (entry 7.16)'),
  databasePort: z.coerce.number().int().min(1).max(65535).default(d.databasePort).describe('the platform\'s PostgreSQL port'),
  databaseUser: z.string().min(1).default(d.databaseUser).describe('the platform\'s PostgreSQL user'),
  databasePasswordKey: z.string().min(1).default(d.databasePasswordKey).describe('key of the platform secret holding the database password'),
}) satisfies z.ZodType<PlatformNames, unknown>;
