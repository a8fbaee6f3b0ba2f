import type { CatalogueEntry } from '../model.js';

/** Guide 7.19: rollout controller 0.13.0 on Kubernetes 1.22+ with outdated definitions. */
export const rolloutStableRs: CatalogueEntry = {
  id: 'rollout-stable-rs',
  ref: '7.19',
  title: "Rollout error 'attempt to index a non-table object(nil) with key stableRS'",
  symptom: "Rollouts fail with 'attempt to index a non-table object(nil) with key stableRS'.",
  cause: 'Cluster version 1.22 or later with rollout controller 0.13.0 and outdated definitions.',
  signatures: {
    errors: ["attempt to index a non-table object(nil) with key 'stableRS'", 'attempt to index a non-table object(nil) with key stableRS'],
    phrases: ['rollout stablers error'],
    context: ['rollout', 'argo-rollouts', 'health.lua', 'lua', 'devtron-charts/rollout', 'main chunk'],
    // The chart the guide names: docs/FAQs/devtron-troubleshoot.md §22 (rollout controller 0.13.0 from
    // devtron-charts/rollout; the Lua stack ends "in main chunk").
  },
  versions: { why: 'rollout controller 0.13.0 on a cluster of version 1.22 or later (section 9)' },
  detector: {
    kind: 'controllerVersion',
    deployment: { names: ['argo-rollouts'], label: 'app.kubernetes.io/name=argo-rollouts' },
    // Controllers before 1.0 list Ingresses from extensions/v1beta1, which Kubernetes 1.22 removed.
    below: '1.0.0',
    clusterAtLeast: '1.22',
  },
  stages: [
    {
      id: 'update-controller',
      title: 'Update the rollout controller chart',
      steps: [
        {
          kind: 'manual',
          does: 'Update the rollout controller in Helm Apps',
          risk: 'read-only',
          items: [
            'In Helm Apps, check the chart repository and version of the rollout controller.',
            'Update it to the latest chart version.',
            "If it comes from the old repository, switch to the platform's own chart repository (add it in Chart Repositories under the platform's name with its chart repository address if missing).",
            'Wait a few minutes, then redeploy.',
          ],
        },
      ],
    },
  ],
};
