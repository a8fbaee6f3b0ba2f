import type { CatalogueEntry } from '../model.js';
import { restartByLabel } from './shared-steps.js';

/** Guide 7.8: updating a cluster fails while the main pod holds a stale configuration. */
export const datasourceUpdateFailed: CatalogueEntry = {
  id: 'datasource-update-failed',
  ref: '7.8',
  title: "Updating a cluster fails with 'Failed to update datasource'",
  symptom: "Updating an existing cluster fails with 'Failed to update datasource. Reload new version and try again'.",
  cause: 'The main platform pod holds a stale configuration.',
  signatures: {
    errors: ['Failed to update datasource. Reload new version and try again', 'Failed to update datasource'],
    phrases: ['cannot update cluster', 'updating cluster fails'],
    context: ['cluster', 'datasource', 'grafana'],
    // Downstream: none found beyond the guide's own text. The message is the metrics dashboard's answer to
    // an update carrying a stale version (it also answers its own users' provisioning and API clients so),
    // which is why the platform's cluster update fails until the main pod is restarted. Sources:
    // docs/FAQs/devtron-troubleshoot.md §8 ({"message":"Failed to update datasource. Reload new version and
    // try again"} when updating an already-added cluster).
  },
  detector: {
    kind: 'logLines',
    namespace: 'platformNamespace',
    sources: [{ label: 'mainPodLabel' }],
    // The dashboard's refusal of a stale data source (grafana pkg/api/datasources.go), as the main pod
    // logs the failed cluster update; it stops once the main pod has started again and read the current version.
    lines: ['Reload new version and try again'],
  },
  stages: [
    {
      id: 'restart-main-pod',
      title: 'Restart the main platform pod and save again',
      steps: [
        { kind: 'manual', does: 'Save the change', risk: 'read-only', items: ['Save the cluster change (it fails; that is expected).'] },
        restartByLabel('Delete the main platform pod so that it loads the configuration again', 'mainPodLabel'),
        {
          kind: 'manual',
          does: 'Save again',
          risk: 'read-only',
          items: ['Refresh the page and save the cluster again.', 'Update again every environment already created in that cluster.'],
        },
      ],
    },
  ],
};
