import type { CatalogueEntry } from '../model.js';

/** Guide 5.5: SSO fails when the platform admits only listed IP ranges without the NAT addresses. */
export const ssoNatAllowlist: CatalogueEntry = {
  id: 'sso-nat-allowlist',
  ref: '5.5',
  title: 'SSO login fails behind an IP allow-list',
  symptom: 'SSO login fails when access to the platform service is restricted to listed IP ranges.',
  cause: "The cluster's NAT-gateway addresses are not on the allow-list.",
  signatures: {
    errors: [],
    phrases: [
      'sso fails behind ip allowlist',
      'sso login fails ip whitelist',
      'nat gateway ip allowlist',
      'sso fails after restricting ip ranges',
      'whitelist-source-range',
      'loadBalancerSourceRanges',
      'load-balancer-source-ranges',
      'nat gateway',
      'cloud nat',
      'sso stopped working after ip whitelisting',
      'sso fails since we restricted access to our ips',
    ],
    context: [
      'sso',
      'login',
      'dex',
      'allowlist',
      'whitelist',
      'nat',
      'source ranges',
      'ip ranges',
      'egress',
      'nat-gateway',
    ],
    // In other words: the identity flow calls the platform's public address from inside the cluster, so
    // once that address admits only listed ranges the call times out unless the cluster's egress (NAT)
    // addresses are listed too. Sources: docs/FAQs/devtron-troubleshoot.md §11 ("restricted devtron-service
    // to be accessible on certain IPs only and SSO login isn't working … Whitelist the NAT-gateway IPs").
  },
  detector: {
    kind: 'notObservable',
    where: 'cloud-console',
    check: "Where access to the platform is restricted to listed IP ranges: are the cluster's NAT-gateway addresses (one per zone) on the list?",
  },
  stages: [
    {
      id: 'allow-nat',
      title: "Add the cluster's NAT-gateway addresses to the allow-list",
      steps: [
        {
          kind: 'manual',
          does: 'Update the allow-list',
          risk: 'read-only',
          items: [
            "Find the cluster's NAT-gateway addresses (one per availability zone in a multi-zone cluster).",
            'Add every one of them to the IP ranges allowed to reach the platform service, then log in with SSO again.',
          ],
        },
      ],
    },
  ],
};
