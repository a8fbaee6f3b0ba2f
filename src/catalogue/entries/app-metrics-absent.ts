import type { CatalogueEntry } from '../model.js';

/** Guide 7.14: the metrics operator only selects service monitors of its own release. */
export const appMetricsAbsent: CatalogueEntry = {
  id: 'app-metrics-absent',
  ref: '7.14',
  appliesTo: 'any-product',
  title: 'App metrics absent on the dashboard and the platform',
  symptom: 'Application metrics are absent on the dashboard and in the platform.',
  cause: "The metrics operator's service monitor selector only picks its own release's monitors.",
  signatures: {
    errors: ['serviceMonitorSelectorNilUsesHelmValues'],
    phrases: ['app metrics absent', 'application metrics not showing', 'servicemonitor not picked up', 'no application metrics'],
    context: ['prometheus', 'servicemonitor', 'kube-prometheus-stack', 'operator'],
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
