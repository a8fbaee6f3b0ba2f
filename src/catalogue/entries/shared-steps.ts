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

/**
 * A standalone Argo CD's own first password (Argo CD 1.9 and later keep it in argocd-initial-admin-secret and
 * print it with `argocd admin initial-password`): the platform never uses either, so a paste about them is
 * about another install of the GitOps controller, not the platform's admin login (guide 5.1, 5.2; the fifth
 * round's tune part, e.g. argoproj/argo-cd threads about the initial password).
 */
export const standaloneArgoCdPassword = ['argocd-initial-admin-secret', 'argocd admin initial-password', 'argo cd initial admin password', 'argocd initial admin password'];
