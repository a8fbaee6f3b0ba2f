import { z } from 'zod';
import { defaultPlatformNames as d, type PlatformNames } from './platform-names.js';

/**
 * Kubernetes' rules for the names a cluster's names stand for (k8s.io/apimachinery/pkg/util/validation/
 * validation.go): a name the API server would refuse is refused here, with its rule, rather than failing every
 * remedy's first call.
 */
const rfc1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const rfc1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const qualifiedName = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const labelValue = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;
const labelRule = 'lower case letters, digits and \'-\', starting and ending with a letter or digit';

/** A string that `valid` accepts, else the problem `says` of it. */
const named = (valid: (v: string) => boolean, says: string) =>
  z
    .string()
    .min(1)
    .refine(valid, { error: `not ${says}` });

const label = (what: string) => named((v) => v.length <= 63 && rfc1123Label.test(v), `${what}: a lowercase RFC 1123 label of at most 63 characters (${labelRule})`);
const namespaceName = label("a namespace's name");
const containerName = label("a container's name");
const objectName = named((v) => v.length <= 253 && rfc1123Subdomain.test(v), `an object's name: a lowercase RFC 1123 subdomain of at most 253 characters (${labelRule}, or '.' between such parts)`);
const podLabel = named((v) => {
  const [key = '', value, ...more] = v.split('=');
  const name = key.slice(key.lastIndexOf('/') + 1);
  return value !== undefined && more.length === 0 && name.length <= 63 && key.length <= 317 && qualifiedName.test(key) && value.length <= 63 && labelValue.test(value);
}, 'a label as key=value (e.g. app=devtron), with Kubernetes\' rules for a label\'s key and value');
const secretKey = named((v) => v.length <= 253 && /^[-._a-zA-Z0-9]+$/.test(v), "a key of a Secret's data: letters, digits, '-', '_' and '.', at most 253 characters");

/**
 * How a configuration's `names` of a cluster are checked; each one defaults to a standard install's,
 * with its description (the README's table of cluster keys is derived from them).
 */
export const platformNamesSchema = z.object({
  platformNamespace: namespaceName.default(d.platformNamespace).describe('`{platform_ns}`: namespace of the platform\'s control components'),
  ciNamespace: namespaceName.default(d.ciNamespace).describe('`{ci_ns}`: namespace in which build pods run'),
  platformSecret: objectName.default(d.platformSecret).describe('`<platform>-secret`: the platform secret holding the admin password keys'),
  mainPodLabel: podLabel.default(d.mainPodLabel).describe('`app=<platform>`: label of the main platform pod'),
  eventWatcherLabel: podLabel.default(d.eventWatcherLabel).describe('`app=<event_watcher>`: label of the build-event watcher pod'),
  brokerPods: z.array(objectName).min(1).default(d.brokerPods).describe('the two message broker pods'),
  databaseStatefulSet: objectName.default(d.databaseStatefulSet).describe('the platform database\'s StatefulSet'),
  databasePod: objectName.default(d.databasePod).describe('the platform database\'s pod'),
  databaseInitContainer: containerName.default(d.databaseInitContainer).describe('the database pod\'s init container whose image the guide replaces (entry 7.9)'),
  databaseContainer: containerName.default(d.databaseContainer).describe('the database pod\'s main container'),
  gitSensorPod: objectName.default(d.gitSensorPod).describe('the git-sensor pod'),
  gitSensorLabel: podLabel.default(d.gitSensorLabel).describe('label of the git-sensor pod'),
  gitSensorClaim: objectName.default(d.gitSensorClaim).describe('the git-sensor\'s volume claim (entry 7.24)'),
  gitopsSecret: objectName.default(d.gitopsSecret).describe('the GitOps controller\'s secret (its admin password and TLS certificate)'),
  dexServerLabel: podLabel.default(d.dexServerLabel).describe('label of the SSO (dex) server pod'),
  gitopsServerLabel: podLabel.default(d.gitopsServerLabel).describe('label of the GitOps server pod'),
  dashboardUrl: z.string().url().default(d.dashboardUrl).describe('`{dashboard_url}`: the metrics dashboard service, as reached from inside the cluster'),
  dashboardUser: z.string().min(1).default(d.dashboardUser).describe('the metrics dashboard\'s admin user'),
  installerName: objectName.default(d.installerName).describe('the installer custom resource whose `status.sync.data` carries the `LTAG=` version line'),
  manifestBaseUrl: z
    .string()
    .url()
    .optional()
    .describe('`{manifest_url}`: a mirror of the platform\'s repository that entries 1 and 2 fetch `manifests/yamls/migrator.yaml` and `rollout.yaml` from, `{version}` standing for the installed version (e.g. `https://mirror.example.com/devtron/{version}/`); unset, they use the manifests bundled with platform-medic (see docs/operations.md)'),
  manifestConfigMap: objectName.default(d.manifestConfigMap).describe('a ConfigMap in the platform namespace whose `migrator.yaml` / `rollout.yaml` keys, when present, entries 1 and 2 apply instead of the bundled manifests'),
  installerReleaseName: objectName.default(d.installerReleaseName).describe('the chart manager (Helm) release that adopts the platform namespace\'s resources (entry 7.18)'),
  dashboardPasswordKey: secretKey.default(d.dashboardPasswordKey).describe('key of the platform secret holding the dashboard password (the guide\'s DASHBOARD_PASSWORD)'),
  dashboardCatalogueUrl: z.string().url().default(d.dashboardCatalogueUrl).describe('`{dashboard_url_catalogue}`: the public dashboard catalogue the four dashboards are downloaded from'),
  dashboardOrgName: z.string().min(1).default(d.dashboardOrgName).describe('the dashboard organisation App Details reads (id 2)'),
  databaseHost: z.string().min(1).default(d.databaseHost).describe('the platform\'s PostgreSQL service, as reached from inside the cluster (entry 7.16)'),
  databasePort: z.coerce.number().int().min(1).max(65535).default(d.databasePort).describe('the platform\'s PostgreSQL port'),
  databaseUser: z.string().min(1).default(d.databaseUser).describe('the platform\'s PostgreSQL user'),
  databasePasswordKey: secretKey.default(d.databasePasswordKey).describe('key of the platform secret holding the database password'),
}) satisfies z.ZodType<PlatformNames, unknown>;
