import type { CatalogueEntry } from '../model.js';

/** Guide 7.5: App Details has no dashboards; the dashboard organisation was never created. */
export const dashboardsMissing: CatalogueEntry = {
  id: 'dashboards-missing',
  ref: '7.5',
  // Grafana says "Panel with id N not found" and "Dashboard not found" for anyone's dashboards: the entry's
  // are App Details' (its panels' dashboard, its organisation 2) or the platform's (tune: an openHAB
  // Grafana thread of the sixth round).
  subject: { names: ['app details', 'devtron-app-metrics', 'orgid=2'], platform: true },
  title: "Dashboards missing on App Details, or 'panel with id 2 not found'",
  symptom: "Dashboards are missing on App Details, or the error 'panel with id 2 not found' appears.",
  cause: 'The metrics store or the dashboard organisation is not configured.',
  signatures: {
    errors: [
      'panel with id 2 not found',
    ],
    phrases: [
      'dashboards missing on app details',
      'grafana dashboards missing',
      'no graphs on app details',
      'metrics dashboard not found',
      'orgid=2 not found',
      'grafana dashboards not visible in app details',
      'graphs not visible on app details',
      'app details graphs not showing',
    ],
    context: [
      'grafana',
      'app details',
      'orgid',
      'dashboard',
      'prometheus',
      'devtron-grafana',
      'devtron-metrics-view',
      'prometheus endpoint',
    ],
    // In other words: App Details shows no graphs; the organisation is devtron-metrics-view, served by
    // devtron-grafana under /grafana. Sources: docs/FAQs/devtron-troubleshoot.md §5 ("Grafana dashboards
    // not visible in App Details page even after adding Prometheus endpoint", its curl calls name
    // devtron-grafana.devtroncd and the devtron-metrics-view organisation).
    excludes: [
      'plugin not found',
    ],
  },
  // Organisation 2's data source, when it has an address, names the metrics store in the fix line offered.
  detector: { kind: 'dashboardOrganisation', metricsStoreParam: 'metricsStore' },
  params: [
    { name: 'metricsStore', description: 'the metrics store endpoint registered for the cluster', pattern: '^https?://[^\\s]+$', example: 'http://prometheus-server.monitoring.svc:80', placeholder: 'metrics-store-URL', format: 'in-cluster-url' },
  ],
  stages: [
    {
      id: 'check-configuration',
      title: 'Check the metrics store and update an environment',
      steps: [
        {
          kind: 'manual',
          does: 'Check the configuration in the dashboard',
          risk: 'read-only',
          items: [
            'Check that the cluster has a metrics store (Prometheus endpoint) configured.',
            'Open Global Configurations > Clusters & Environments, open any environment of that cluster and click Update.',
            'If the dashboards are still missing, open {base_url}/grafana?orgId=2.',
          ],
        },
      ],
      then: {
        question: 'What does /grafana?orgId=2 show?',
        choices: [
          { id: 'dashboards', label: 'Dashboards show now', then: { end: 'resolved', message: 'The dashboards are back on App Details.' } },
          { id: 'not-found', label: "'Not Found'", then: { stage: 'create-organisation' } },
        ],
      },
    },
    {
      id: 'create-organisation',
      title: 'Create the dashboard organisation, its data source and the four dashboards',
      steps: [
        {
          kind: 'dashboardOrgRepair',
          does: 'Create organisation 2, switch to it, set its preferences, create the default data source with the metrics store address, and import the four dashboards',
          risk: 'destructive',
          metricsStoreParam: 'metricsStore',
        },
        {
          kind: 'manual',
          does: 'Check in the dashboard',
          risk: 'read-only',
          items: [
            'Open {base_url}/grafana?orgId=2, log in as admin and check the default data source points at the metrics store (edit it otherwise).',
            'Update an environment of the cluster again in the dashboard so that its data source is created.',
          ],
        },
      ],
    },
  ],
};
