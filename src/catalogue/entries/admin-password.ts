import type { CatalogueEntry } from '../model.js';
import { revealAdminPassword, standaloneArgoCdPassword } from './shared-steps.js';

/** Guide 5.1: the admin login's password, read from the platform secret. */
export const adminPassword: CatalogueEntry = {
  id: 'admin-password',
  ref: '5.1',
  title: 'Admin login: read the admin password',
  symptom: 'Someone needs the admin password of the dashboard (user admin).',
  cause: 'The password is kept, base64-encoded, in the platform secret: ADMIN_PASSWORD from v0.6.9, ACD_PASSWORD before.',
  // The platform dashboard's admin login: another product's initial password (another Argo CD chart, a panel's
  // admin) is not read from the platform secret.
  subject: { names: ['dashboard', 'admin'], platform: true },
  signatures: {
    errors: [],
    phrases: [
      'admin password',
      'where is the admin password',
      'how do i get the admin password',
      'default admin password',
      'initial password',
      'what is the password for admin',
      'ADMIN_PASSWORD',
    ],
    context: [
      'admin',
      'password',
      'login',
      'devtron-secret',
    ],
    excludes: standaloneArgoCdPassword,
    // In other words: people ask for the login of a fresh install ("default", "initial" password) and
    // find the key with `kubectl … get secret devtron-secret -o jsonpath='{.data.ADMIN_PASSWORD}'`; the
    // install notes print that command. A rejected password is the gentler end of 5.2's message (see
    // admin-password-reset's `gentler`). Sources: the install NOTES quoted in devtron-labs/devtron#3839,
    // docs/FAQs/devtron-troubleshoot.md §18 ("Run the command for admin credentials").
  },
  detector: {
    kind: 'notObservable',
    where: 'platform-ui',
    check: 'A procedure, not a symptom: read the admin password when you need it.',
  },
  stages: [
    {
      id: 'reveal',
      title: 'Read the admin password',
      steps: [
        revealAdminPassword('Read and decode the admin password, shown only to you'),
      ],
    },
  ],
};
