import type { CatalogueEntry } from '../model.js';

/** Guide 7.14: the metrics operator only selects service monitors of its own release. */
export const appMetricsAbsent: CatalogueEntry = {
  id: 'app-metrics-absent',
  ref: '7.14',
  appliesTo: 'any-product',
  // The remedy is the metrics operator's ServiceMonitor selector: metrics missing elsewhere (a GitOps
  // controller's own, a dashboard's data source) are not its subject; the platform's metrics are.
  subject: { names: ['servicemonitor', 'service monitor', 'podmonitor', 'prometheus'], platform: true },
  title: 'App metrics absent on the dashboard and the platform',
  symptom: 'Application metrics are absent on the dashboard and in the platform.',
  cause: "The metrics operator's service monitor selector only picks its own release's monitors.",
  signatures: {
    errors: ['serviceMonitorSelectorNilUsesHelmValues'],
    phrases: [
      'app metrics absent',
      'application metrics not showing',
      'servicemonitor not picked up',
      'no application metrics',
      'servicemonitor not discovered',
      'servicemonitor not being discovered',
      'prometheus does not discover the servicemonitor',
      'servicemonitor not appearing in targets',
      'servicemonitor not showing up in targets',
      'servicemonitor missing the release label',
      'target does not appear in prometheus',
      // The platform's FAQ in its users' words: "app metrics is not coming on Grafana and Devtron dashboard".
      'app metrics not coming',
      // The operator's troubleshooting guide asks "Has my ServiceMonitor been picked up by Prometheus?".
      'servicemonitor has not been picked up',
      // Spelled as two words, and the selector that leaves a monitor out, as people put it.
      'does not discover service monitors',
      'service monitor not discovered',
      'no metrics are scraped from the service monitor',
      'selector omits the servicemonitor',
    ],
    // The same selector's siblings for pod monitors and rules (kube-prometheus-stack values.yaml).
    context: ['prometheus', 'servicemonitor', 'kube-prometheus-stack', 'operator', 'serviceMonitorNamespaceSelector', 'prometheus-operator', 'release: prometheus', 'targets', 'podMonitorSelectorNilUsesHelmValues'],
    // In other words: the operator's default selector matches only monitors labelled with its own
    // release, so other charts' ServiceMonitors are "not discovered" and their targets never appear.
    // Sources: prometheus-operator/prometheus-operator#1470 ("ServiceMonitor not appearing in config or
    // targets"; release: prometheus-operator, then serviceMonitorSelectorNilUsesHelmValues: false),
    // prometheus-operator/kube-prometheus#1392 ("servicemonitor not being discovered"; the release label),
    // prometheus-community/helm-charts#1631 (kube-state-metrics' ServiceMonitor ignored without the label),
    // #1694 and #1867 (monitors of other namespaces and Grafana's own), docs/FAQs/devtron-troubleshoot.md §15.
    // The selector itself, quoted from the Prometheus object, is what the entry changes: with a service
    // monitor near it, it is the entry's.
    downstream: ['serviceMonitorSelector'],
    // The guide's remedy as people say they did it: with words saying the error persists, it is not proposed again.
    applied: ['serviceMonitorSelectorNilUsesHelmValues: false', 'serviceMonitorSelectorNilUsesHelmValues=false', 'serviceMonitorSelectorNilUsesHelmValues": false'],
    // Not this remedy: a monitor the operator selected but rejected as invalid (its "skipping servicemonitor"
    // warning, the "was rejected due to invalid configuration" event, the PrometheusOperatorRejectedResources
    // alert) and a Prometheus whose service account may not list the target's endpoints; the operator's
    // troubleshooting guide names both beside the selector. Sources: prometheus-operator
    // Documentation/platform/troubleshooting.md ("Troubleshooting ServiceMonitor changes"),
    // pkg/prometheus/resource_selector.go (the rejection warning and event).
    excludes: [
      'skipping servicemonitor',
      'was rejected due to invalid configuration',
      'PrometheusOperatorRejectedResources',
      'cannot list resource "endpoints"',
      'cannot list resource "endpointslices"',
      // A pod monitor left out is its own selector's (podMonitorSelectorNilUsesHelmValues), which the guide's
      // remedy does not set: the symptom told of a PodMonitor is not this remedy's.
      'podmonitor is not',
      'podmonitor not',
      'podmonitors are not',
      'podmonitors not',
      // No ServiceMonitor at all for the service: the fix is to create one, which no selector setting does.
      'there is no service monitor',
      'there is no servicemonitor',
      'by adding a service monitor',
      'by adding a servicemonitor',
      // The monitor was selected but finds no target: its own port (a targetPort the pod does not expose) or its own
      // selector (a label the Service lacks) is wrong, and fixing the monitor is the answer, not Prometheus's
      // selection (tune: chart and operator threads of the seventh round; the operator's troubleshooting guide).
      'targetPort',
      'wrong label',
      'selector in servicemonitor',
      'set app label',
      'select on match label',
    ],
  },
  detector: {
    kind: 'notObservable',
    where: 'chart-values',
    check: "In the metrics operator's chart values: serviceMonitorSelectorNilUsesHelmValues must be false.",
  },
  stages: [
    {
      id: 'selector',
      title: "Let the operator select every service monitor",
      steps: [
        {
          kind: 'manual',
          does: "Change the metrics operator's chart values",
          risk: 'read-only',
          items: [
            'Set prometheus.prometheusSpec.serviceMonitorSelectorNilUsesHelmValues=false in the metrics operator (kube-prometheus-stack) values and upgrade its release.',
            'Check the application metrics appear after the next scrape.',
          ],
        },
      ],
    },
  ],
};
