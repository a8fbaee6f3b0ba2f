import type { CatalogueEntry } from '../model.js';

/** Guide 7.15: metrics-server cannot validate the kubelets' certificates. */
export const metricsServerTls: CatalogueEntry = {
  id: 'metrics-server-tls',
  ref: '7.15',
  appliesTo: 'any-product',
  // The remedy is metrics-server's own flag: an x509 error of anything else (a git host, a registry) is not
  // its subject, and naming the platform says nothing about metrics-server.
  subject: { names: ['metrics-server', 'metrics server', 'kubelet', 'kubectl top', 'metrics api', 'metrics.k8s.io', ':10250'], platform: false },
  title: 'Metrics-server chart cannot be deployed',
  symptom: 'The metrics-server chart cannot be deployed (its pod never becomes ready).',
  cause: "Certificate validation of the kubelets fails.",
  signatures: {
    errors: [
      'x509: cannot validate certificate for',
      "because it doesn't contain any IP SANs",
      'unable to fully scrape metrics',
      'failed to scrape node',
    ],
    phrases: [
      'metrics server cannot be deployed',
      'metrics-server not ready',
      'metrics-server chart fails',
      'x509: certificate signed by unknown authority',
      'metrics api not available',
    ],
    context: [
      'metrics-server',
      'kubelet',
      'scrape',
      ':10250',
      'metrics/resource',
      'kubectl top',
    ],
    // Downstream: the scrape fails on the kubelets' serving certificates, so `kubectl top` and the
    // metrics API give nothing, and people say the certificates "have no IP SANs" or "could not be
    // verified" (Go 1.20 prefixes the x509 text with "tls: failed to verify certificate"). Already tried:
    // the flag in place and the error still there is something else. Sources:
    // kubernetes-sigs/metrics-server KNOWN_ISSUES.md and issues #196, #917 and #812 (--kubelet-insecure-tls
    // fixes the IP-SANs and unknown-authority scrape errors), #1081 (the flag passed and still failing),
    // docs/FAQs/devtron-troubleshoot.md §16.
    downstream: ['ip sans', 'tls: failed to verify certificate'],
    applied: ['--kubelet-insecure-tls', 'kubelet-insecure-tls: true', 'kubelet-insecure-tls=true'],
  },
  detector: {
    kind: 'missingArgument',
    // As its chart names it (kubernetes-sigs/metrics-server charts/metrics-server), in whatever namespace it is installed.
    deployment: { names: ['metrics-server'], label: 'app.kubernetes.io/name=metrics-server' },
    argument: '--kubelet-insecure-tls',
  },
  stages: [
    {
      id: 'insecure-tls',
      title: 'Deploy metrics-server with --kubelet-insecure-tls',
      steps: [
        {
          kind: 'manual',
          does: 'Pass the argument to the chart',
          risk: 'read-only',
          items: ['Deploy the metrics-server chart with the argument --kubelet-insecure-tls (chart values: args: [--kubelet-insecure-tls]).'],
        },
      ],
    },
  ],
};
