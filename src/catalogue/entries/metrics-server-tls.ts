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
    ],
    phrases: [
      'metrics server cannot be deployed',
      'metrics-server not ready',
      'metrics-server chart fails',
      'unable to deploy metrics-server',
    ],
    // The scrape's and the metrics API's failures say metrics are missing, not why: a firewall, the
    // aggregation layer switched off and a kubelet without a serving certificate ("remote error: tls:
    // internal error") produce them as well (real threads: a k3s homelab behind ufw, Kubernetes the Hard
    // Way's unreachable APIService). They support the entry; only the certificate's own error shows it.
    context: [
      'failed to scrape node',
      'unable to fully scrape metrics',
      'no metrics to serve',
      'MissingEndpoints',
      'metrics api not available',
      // kubectl top's answer when the server holds no metrics at all (top_node.go, top_pod.go).
      'metrics not available yet',
      'get nodes.metrics.k8s.io',
      'get pods.metrics.k8s.io',
      'metrics-server',
      'kubelet',
      'scrape',
      ':10250',
      'metrics/resource',
      'stats/summary',
      'kubectl top',
    ],
    // Downstream: the scrape fails on the kubelets' serving certificates, so `kubectl top` and the
    // metrics API give nothing, and people say the certificates "have no IP SANs" or "could not be
    // verified" (Go 1.20 prefixes the x509 text with "tls: failed to verify certificate"). Already tried:
    // the flag in place and the error still there is something else. Sources:
    // kubernetes-sigs/metrics-server KNOWN_ISSUES.md and issues #196, #917 and #812 (--kubelet-insecure-tls
    // fixes the IP-SANs and unknown-authority scrape errors), #1081 (the flag passed and still failing),
    // docs/FAQs/devtron-troubleshoot.md §16.
    // metrics-server's own scrape failure ("Failed to scrape node", "unable to fully scrape metrics") and
    // readiness ("no metrics to serve"), the aggregated API left without endpoints, `kubectl top`'s "Metrics
    // API not available" and "unable to handle the request (get nodes.metrics.k8s.io)", and an unknown
    // authority or a certificate for another name are what the unverified kubelet certificate produces, but
    // so do a network timeout and a server never installed: near the kubelet scrape (context) they are the
    // entry's. KNOWN_ISSUES.md names the other causes: a scrape that times out ("context deadline exceeded",
    // "i/o timeout", v0.6's "timeout to access kubelet"), the front-proxy CA that authenticates the API
    // server's requests ("Unable to authenticate the request due to an error"), the control plane that
    // cannot reach metrics-server (the APIService's FailedDiscoveryCheck), and an HPA's pods without
    // requests ("missing request for"). Sources: metrics-server pkg/scraper/scraper.go, pkg/server/server.go,
    // KNOWN_ISSUES.md, README.md (requirements), kubectl top's messages.
    downstream: [
      'ip sans',
      'tls: failed to verify certificate',
      'x509: certificate signed by unknown authority',
      'x509: certificate is valid for',
    ],
    excludes: [
      'context deadline exceeded',
      'i/o timeout',
      'timeout to access kubelet',
      'Unable to authenticate the request due to an error',
      'FailedDiscoveryCheck',
      'missing request for',
      // One pod without metrics while the nodes have theirs: the kubelet's report (KNOWN_ISSUES.md).
      'Metrics not available for pod',
    ],
    applied: ['--kubelet-insecure-tls', 'kubelet-insecure-tls: true', 'kubelet-insecure-tls=true'],
    // The remedy skips the kubelets' certificate check; people who want them verified ask for the other way (signed
    // serving certificates, the kubelet's CA), which the guide does not give. Source: kubernetes-sigs/metrics-server
    // issues asking how to configure it "without disabling TLS verification" (real-paste corpus, tune part).
    declines: [
      'without disabling tls verification',
      'without disabling tls verify',
      'without disabling certificate verification',
      'without skipping tls verification',
      'without --kubelet-insecure-tls',
      'without kubelet-insecure-tls',
      'without using --kubelet-insecure-tls',
      'without using kubelet-insecure-tls',
      'without the --kubelet-insecure-tls',
      'instead of --kubelet-insecure-tls',
      'instead of using --kubelet-insecure-tls',
      'not want to use --kubelet-insecure-tls',
      "don't want to use --kubelet-insecure-tls",
    ],
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
