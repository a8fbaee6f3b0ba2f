import type { LabelName } from '../../platform-names.js';
import type { DeletePodsStep } from '../../remedies/steps/delete-pods.js';
import type { RevealSecretStep } from '../../remedies/steps/reveal-secret.js';

/**
 * Steps several entries of the guide share, written once: reading the admin password (5.1, 5.2, 5.3,
 * 7.17) and restarting pods by one of the platform's labels (7.3, 7.8, 7.22, 5.2, 5.3).
 */

/** Reads the admin password (ADMIN_PASSWORD from v0.6.9, ACD_PASSWORD before), for the person who asked alone. */
export function revealAdminPassword(does: string): RevealSecretStep {
  return { kind: 'revealSecret', does, risk: 'read-only', secret: 'platformSecret', key: { fromV069: 'ADMIN_PASSWORD', before: 'ACD_PASSWORD' } };
}

/** Deletes the pods of one of the platform's labels so that their controller starts them again. */
export function restartByLabel(does: string, label: LabelName): DeletePodsStep {
  return { kind: 'deletePods', does, risk: 'restart', targets: [{ by: 'label', namespace: 'platformNamespace', label }], verifyWithinSeconds: 300 };
}
