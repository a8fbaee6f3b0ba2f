import type { FaultEntry, PodFault } from '../fault-model.js';
import { adminPasswordReset, adminPasswordResetLegacy } from './admin-password.js';
import { cpuGraphsEmpty, dashboardsMissing, datasourceUpdateFailed } from './dashboard.js';
import { databaseDropBlocked } from './database.js';
import { gitopsCertificateExpired } from './gitops-certificate.js';
import { helmAdoption } from './helm-adoption.js';
import { terminalDisconnects, uploadTooLarge } from './ingress.js';
import { installJobsFailed } from './install-jobs.js';
import { kubeletCertificateRejected, metricsServerTls } from './metrics-server.js';
import { imagePullPrivateRegistry, registryForbidden, registryUnauthorized } from './private-registry.js';
import { controllerTooOld, rolloutStableRs } from './rollout-controller.js';
import { rolloutCrdsOutdated } from './rollout-crds.js';
import { rolloutInvalidJson } from './rollout-json.js';
import { gitSensorVolumeFull } from './volume.js';

/**
 * Broken states that live in objects rather than in pods' faults (the API server's objects, the metrics
 * dashboard's, the database's): each changes those of a standard install into an entry's broken state
 * and tells from them whether the symptom is still there.
 */
export const stateEntries: readonly FaultEntry[] = [
  installJobsFailed,
  rolloutCrdsOutdated,
  uploadTooLarge,
  helmAdoption,
  terminalDisconnects,
  gitopsCertificateExpired,
  gitSensorVolumeFull,
  rolloutInvalidJson,
  adminPasswordReset,
  adminPasswordResetLegacy,
  dashboardsMissing,
  datasourceUpdateFailed,
  cpuGraphsEmpty,
  databaseDropBlocked,
  metricsServerTls,
  imagePullPrivateRegistry,
  rolloutStableRs,
];

/** The pod faults of these broken states (their pods inherit them from the cluster's state). */
export const stateFaults: readonly PodFault[] = [kubeletCertificateRejected, registryUnauthorized, registryForbidden, controllerTooOld];
