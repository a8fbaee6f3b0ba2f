import type { CatalogueEntry } from '../model.js';
import { restartByLabel } from './shared-steps.js';

/**
 * Guide 7.3: SSO configuration saved but not loaded; deleting the main pod reloads it. Guide 5.5 (SSO
 * behind an IP allow-list) is sso-nat-allowlist's: one reference, one entry.
 */
export const ssoLogin: CatalogueEntry = {
  id: 'sso-login',
  ref: '7.3',
  title: 'SSO login fails with correct credentials',
  symptom: "SSO login fails with correct credentials ('no token provided' or 'unsupported protocol scheme')",
  cause: 'The SSO configuration was saved but not loaded by the main platform pod.',
  // The platform's single sign-on: its dex (argocd-dex-server), the main pod that loads the configuration, its login
  // service. Another dex, run and configured by its owner, writes the same Go errors ('unsupported protocol scheme').
  subject: { names: ['argocd-dex-server', 'orchestrator', 'api/dex', 'login services', 'sso configuration'], platform: true },
  signatures: {
    errors: [
      'no token provided',
      'unsupported protocol scheme',
    ],
    phrases: [
      'sso login fails',
      'sso login not working',
      'cannot log in with sso',
      'single sign-on fails',
      'oidc login fails',
      'cannot login until the orchestrator pod is restarted',
      'sso works only after restarting the devtron pod',
      'sso configuration not applied until the pod is restarted',
    ],
    context: [
      'sso',
      'dex',
      'oidc',
      'openid-configuration',
      'failed to query provider',
      'argocd-dex-server',
      'orchestrator',
      'api/dex',
      'login services',
    ],
    // In other words: the main pod (the "orchestrator") reads the SSO configuration at start-up, so people
    // report that SSO works only once they restarted ("bounced") it. Sources: devtron-labs/devtron#1990
    // ("We are not able to login until we bounce the orchestrator pod"), #2829 ("this gets fixed after
    // deleting devtron pod"), #2753 (the fix: "No need to bounce orchestrator if SSO config are
    // added/updated"), docs/FAQs/devtron-troubleshoot.md §3.
    excludes: [
      'whitelist-source-range',
      'loadBalancerSourceRanges',
      'ip allowlist',
      'ip whitelist',
      'nat gateway',
      'cloud nat',
      'no such host',
      'could not resolve host',
      // A Dex configuration the platform cannot parse is not fixed by reloading it
      // (devtron-labs/authenticator client/k8sClient.go "malformed Dex configuration found").
      'malformed Dex configuration found',
    ],
    // The guide's remedy as people say they did it: with words saying the error persists, it is not proposed again.
    applied: ['restarted the devtron pod', 'deleted the devtron pod', 'restarted devtron pod', 'deleting the devtron pod', 'restarting the devtron pod', 'restarted the orchestrator'],
  },
  detector: {
    kind: 'logLines',
    namespace: 'platformNamespace',
    sources: [{ label: 'mainPodLabel' }],
    // The guide's two server log entries (section 5.5) when the SSO configuration was saved but not loaded.
    lines: ['no token provided', 'unsupported protocol scheme'],
  },
  stages: [
    {
      id: 'reload-config',
      title: 'Reload the configuration by restarting the main platform pod',
      steps: [
        restartByLabel('Delete the main platform pod so that it starts again and loads the saved SSO configuration', 'mainPodLabel'),
        {
          kind: 'manual',
          does: 'Log in again',
          risk: 'read-only',
          items: [
            'Log in with SSO again once the new pod is Ready.',
            'If the platform service only admits listed IP ranges, make sure the cluster\'s NAT-gateway addresses (one per availability zone) are on the list; otherwise SSO login keeps failing.',
          ],
        },
      ],
    },
  ],
};
