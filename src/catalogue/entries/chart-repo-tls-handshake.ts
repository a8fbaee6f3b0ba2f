import type { CatalogueEntry } from '../model.js';

/** Guide 7.26: a third-party chart repository fails with 'tls: handshake failure'. */
export const chartRepoTlsHandshake: CatalogueEntry = {
  id: 'chart-repo-tls-handshake',
  ref: '7.26',
  title: "Third-party chart repository charts missing; 'tls: handshake failure'",
  symptom: "Charts of a third-party public chart repository are missing; fetching its index fails with 'tls: handshake failure'.",
  cause: "The repository's 'Allow Insecure Connection' setting.",
  signatures: {
    errors: ['tls: handshake failure'],
    phrases: ['chart repository charts missing', 'public chart repo not syncing'],
    context: ['index.yaml', 'chart', 'repository', 'helm', 'chart repo', 'allow insecure connection', 'chart sync'],
    // Downstream: the repository's charts are missing from the Chart Store because the sync cannot read its
    // index. Deliberately not evidence: the chart manager's "is not a valid chart repository or cannot be
    // reached" and "TLS handshake timeout", which it writes for any unreachable repository (a moved URL, a
    // 404, a slow network), not for the cipher mismatch the insecure-connection setting causes. Sources: the
    // guide's 7.26 and 9, devtron-labs/devtron#930 and #935 (chart sync), helm/helm's repo errors.
    // The guide's remedy as people say they did it: with words saying the error persists, it is not proposed again.
    applied: ['unchecked allow insecure', 'disabled allow insecure', 'allow insecure connection is unchecked', 'allow insecure connection is disabled'],
  },
  versions: { atLeast: '0.7.1', why: 'the insecure-connection remedy needs platform 0.7.1 or later (section 9)' },
  detector: {
    kind: 'notObservable',
    where: 'platform-ui',
    check: "In Global Configurations > Chart Repositories: is 'Allow Insecure Connection' checked on the third-party repository, and is the platform older than 0.7.1?",
  },
  stages: [
    {
      id: 'secure-connection',
      title: 'Turn off insecure connection for the repository, then sync',
      steps: [
        { kind: 'checkVersion', does: 'Check the platform is 0.7.1 or later', risk: 'read-only', atLeast: '0.7.1', why: 'the chart repository\'s insecure-connection setting this remedy changes comes with 0.7.1 (section 9): upgrade the platform first' },
        {
          kind: 'manual',
          does: 'Change the repository in the dashboard',
          risk: 'read-only',
          items: [
            "In Global Configurations > Chart Repositories open the repository, uncheck 'Allow Insecure Connection' and Update.",
            'In Chart Store start Chart Sync.',
          ],
        },
      ],
    },
  ],
};
