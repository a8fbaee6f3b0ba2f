import type { CatalogueEntry } from '../model.js';
import { revealAdminPassword, standaloneArgoCdPassword } from './shared-steps.js';

/** Guide 7.17: the admin password cannot be decoded on a host without a base64 tool. */
export const adminPasswordNoBase64: CatalogueEntry = {
  id: 'admin-password-no-base64',
  ref: '7.17',
  title: 'Admin password cannot be obtained on a host without a base64 tool',
  symptom: 'Reading the admin password fails on a host that has no base64 tool.',
  cause: 'The base64 tool is missing.',
  signatures: {
    errors: [],
    // The missing tool's own message is the entry's only when the paste is about the platform's admin
    // password: the same words come from anyone decoding any secret on Windows or in a minimal image.
    // Sources: docs/FAQs/devtron-troubleshoot.md §19 ("'base64' is not recognized as an internal or
    // external command" while reading ADMIN_PASSWORD), MicrosoftDocs/azure-docs#60811 (the same on
    // PowerShell for an AKS certificate procedure).
    downstream: [
      'base64: command not found',
      "'base64' is not recognized as an internal or external command",
      'base64: not found',
      "the term 'base64' is not recognized",
    ],
    phrases: [
      'cannot decode admin password',
      'no base64 on windows',
    ],
    context: [
      'admin password',
      'ACD_PASSWORD',
      'ADMIN_PASSWORD',
      'kubectl get secret',
    ],
    excludes: standaloneArgoCdPassword,
  },
  detector: {
    kind: 'notObservable',
    where: 'workstation',
    check: 'On your machine: is a base64 tool installed? Otherwise decode the ACD_PASSWORD value elsewhere.',
  },
  stages: [
    {
      id: 'reveal',
      title: 'Read the admin password for you',
      steps: [
        revealAdminPassword('Read and decode the admin password, shown only to you'),
      ],
    },
  ],
};
