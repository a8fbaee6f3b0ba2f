import type { CatalogueEntry } from '../model.js';
import { revealAdminPassword, restartByLabel, standaloneArgoCdPassword } from './shared-steps.js';

/** Guide 5.2: reset the admin password on v0.6.9 and later. */
export const adminPasswordReset: CatalogueEntry = {
  id: 'admin-password-reset',
  ref: '5.2',
  gentler: { entries: ['admin-password', 'stale-session-cookie'], forTexts: ['invalid username or password'] },
  title: 'Reset the admin password (v0.6.9 and later)',
  symptom: "The admin password is lost or rejected with 'invalid username or password'.",
  cause: 'The stored password must be regenerated.',
  signatures: {
    errors: ['invalid username or password'],
    phrases: ['reset admin password', 'forgot admin password', 'lost admin password', 'admin password not working'],
    context: ['admin', 'password', 'login', 'dex', 'admin.passwordMtime'],
    excludes: standaloneArgoCdPassword,
    // Downstream: nothing beyond the dashboard's own answer ("invalid username or password"); the same words
    // come from every product's login, so they ask between this reset and the gentler reading of the
    // password or the stale cookie. Sources: docs/FAQs/devtron-troubleshoot.md §18 (remove ADMIN_PASSWORD,
    // admin.password and admin.passwordMtime, restart argocd-dex-server).
  },
  versions: { atLeast: '0.6.9', why: 'password reset by key removal exists from v0.6.9 (section 9)' },
  detector: {
    kind: 'notObservable',
    where: 'browser',
    check: "At the login page: does the admin password give 'invalid username or password'?",
  },
  stages: [
    {
      id: 'regenerate',
      title: 'Regenerate the admin password',
      steps: [
        { kind: 'checkVersion', does: 'Check the platform is v0.6.9 or later', risk: 'read-only', atLeast: '0.6.9', why: 'older versions use the other reset (admin-password-reset-legacy)' },
        {
          kind: 'removeSecretKeys',
          does: 'Remove ADMIN_PASSWORD, admin.password and admin.passwordMtime from the platform secret (after saving a backup)',
          risk: 'destructive',
          secret: 'platformSecret',
          keys: ['ADMIN_PASSWORD', 'admin.password', 'admin.passwordMtime'],
        },
        restartByLabel('Delete the identity server pod so that a new password is generated', 'dexServerLabel'),
        revealAdminPassword('Read the new admin password, shown only to the person who asked'),
      ],
    },
  ],
};
