import type { CatalogueEntry } from '../model.js';
import { revealAdminPassword, restartByLabel, standaloneArgoCdPassword } from './shared-steps.js';

/** Guide 5.3: reset the admin password on versions older than v0.6.9. */
export const adminPasswordResetLegacy: CatalogueEntry = {
  id: 'admin-password-reset-legacy',
  ref: '5.3',
  gentler: { entries: ['admin-password', 'stale-session-cookie'], forTexts: ['invalid username or password'] },
  title: 'Reset the admin password (versions before v0.6.9)',
  symptom: 'The admin password of an installation older than v0.6.9 is lost or rejected.',
  cause: "On older versions the password lives in the GitOps controller's secret.",
  signatures: {
    errors: [],
    phrases: ['reset admin password old version', 'reset argocd admin password', 'reset password before 0.6.9'],
    context: ['argocd-secret', 'admin.password', 'argocd', 'password', 'ACD_PASSWORD'],
    excludes: standaloneArgoCdPassword,
    // In other words: before v0.6.9 the admin login is the GitOps controller's, so people ask how to reset
    // "the argocd admin password" and read ACD_PASSWORD. Sources: the guide's 5.3 and 9 (LTAG below
    // v0.6.9), docs/FAQs/devtron-troubleshoot.md §18-19 (ACD_PASSWORD on older installs).
  },
  versions: { below: '0.6.9', why: 'versions before v0.6.9 keep the admin password in the GitOps controller secret (section 5.3)' },
  detector: {
    kind: 'notObservable',
    where: 'browser',
    check: "At the login page (platform older than v0.6.9): does the admin password give 'invalid username or password'?",
  },
  stages: [
    {
      id: 'regenerate',
      title: 'Regenerate the admin password (older versions)',
      steps: [
        { kind: 'checkVersion', does: 'Check the platform is older than v0.6.9', risk: 'read-only', below: '0.6.9', why: 'v0.6.9 and later use admin-password-reset' },
        {
          kind: 'removeSecretKeys',
          does: 'Remove admin.password and admin.passwordMtime from the GitOps controller secret (after saving a backup)',
          risk: 'destructive',
          secret: 'gitopsSecret',
          keys: ['admin.password', 'admin.passwordMtime'],
        },
        restartByLabel('Delete the GitOps controller server pod so that a new password is generated', 'gitopsServerLabel'),
        revealAdminPassword('Read the new admin password, shown only to the person who asked'),
      ],
    },
  ],
};
