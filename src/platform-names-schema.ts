import { z } from 'zod';
import { defaultPlatformNames as d, type PlatformNames } from './platform-names.js';

/** How a configuration's `names` of a cluster are checked; each one defaults to a standard install's. */
export const platformNamesSchema = z.object({
  platformNamespace: z.string().min(1).default(d.platformNamespace),
  ciNamespace: z.string().min(1).default(d.ciNamespace),
  platformSecret: z.string().min(1).default(d.platformSecret),
  mainPodLabel: z.string().min(1).default(d.mainPodLabel),
  eventWatcherLabel: z.string().min(1).default(d.eventWatcherLabel),
  brokerPods: z.array(z.string().min(1)).min(1).default(d.brokerPods),
  databaseStatefulSet: z.string().min(1).default(d.databaseStatefulSet),
  databasePod: z.string().min(1).default(d.databasePod),
  databaseInitContainer: z.string().min(1).default(d.databaseInitContainer),
  databaseContainer: z.string().min(1).default(d.databaseContainer),
  gitSensorPod: z.string().min(1).default(d.gitSensorPod),
  gitSensorLabel: z.string().min(1).default(d.gitSensorLabel),
  gitSensorClaim: z.string().min(1).default(d.gitSensorClaim),
  gitopsSecret: z.string().min(1).default(d.gitopsSecret),
  dexServerLabel: z.string().min(1).default(d.dexServerLabel),
  gitopsServerLabel: z.string().min(1).default(d.gitopsServerLabel),
  dashboardUrl: z.string().url().default(d.dashboardUrl),
  dashboardUser: z.string().min(1).default(d.dashboardUser),
  installerName: z.string().min(1).default(d.installerName),
  manifestBaseUrl: z.string().url().default(d.manifestBaseUrl),
  installerReleaseName: z.string().min(1).default(d.installerReleaseName),
  dashboardPasswordKey: z.string().min(1).default(d.dashboardPasswordKey),
  dashboardCatalogueUrl: z.string().url().default(d.dashboardCatalogueUrl),
  dashboardOrgName: z.string().min(1).default(d.dashboardOrgName),
  databaseHost: z.string().min(1).default(d.databaseHost),
  databasePort: z.coerce.number().int().min(1).max(65535).default(d.databasePort),
  databaseUser: z.string().min(1).default(d.databaseUser),
  databasePasswordKey: z.string().min(1).default(d.databasePasswordKey),
}) satisfies z.ZodType<PlatformNames, unknown>;
