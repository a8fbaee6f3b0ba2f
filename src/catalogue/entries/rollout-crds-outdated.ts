import type { CatalogueEntry } from '../model.js';

/** Guide 7.2: outdated rollout definitions break deployment metrics and data-volume deploys. */
export const rolloutCrdsOutdated: CatalogueEntry = {
  id: 'rollout-crds-outdated',
  ref: '7.2',
  title: 'Deployment metrics missing, app metrics cannot be enabled, or data-volume deploys fail',
  symptom:
    'Deployment metrics are missing in production, application metrics cannot be enabled, or a deploy fails after creating a ConfigMap or Secret with the data-volume option.',
  cause: 'The rollout custom resource definitions are outdated.',
  signatures: {
    errors: [],
    phrases: [
      'deployment metrics missing',
      'application metrics cannot be enabled',
      'cannot enable application metrics',
      'deploy fails after creating configmap',
      'deploy fails after creating secret',
      'data volume option',
      'rollout crd outdated',
      'in io.argoproj.v1alpha1.Rollout',
      'ValidationError(Rollout.spec',
      'deploy fails with app metrics enabled',
      'deployment with app metrics goes degraded',
      'deployment metrics have no data',
      'configmap as data volume not mounted',
      // The remedy as the platform's chart repository names it (tune: devtron-labs/charts "Updated Rollout CRDs to latest version").
      'updated rollout crds',
      'update rollout crds',
    ],
    context: [
      'rollout',
      'rollouts.argoproj.io',
      'crd',
      'configmap',
      'secret',
      'volume',
      'data volume',
      'envoy',
      'app-metrics',
      'app metrics',
    ],
    // Downstream, in other words: with outdated rollout definitions a deploy with application metrics
    // (the envoy sidecar and its ConfigMap) goes Degraded and deployment metrics stay empty; ConfigMaps
    // and Secrets mounted as data volumes are not applied. Sources: devtron-labs/devtron#1017 ("throws an
    // error whenever we try to deploy with app-metrics enabled … deployment metrics doesn't have any
    // data", "goes under degraded"), devtron-labs/devtron#1086 (the rollout CRD fix: "app-metrics or envoy
    // configmap not being able to be mounted or configmaps and secrets not being able to be applied as
    // data-volume"), docs/FAQs/devtron-troubleshoot.md §2.
    // The guide's remedy as people say they did it: with words saying the error persists, it is not proposed again.
    // A job pipeline's data volume (a Devtron job, no Rollout) is another component's, fixed in code (tune: a
    // ConfigMap mounted but never created in a job).
    excludes: ['devtron job', 'job pipeline'],
    applied: ['applied the latest rollout crd', 'updated the rollout crd', 'applied rollout.yaml', 'applied the rollout manifest', 'updated the crds'],
  },
  detector: { kind: 'crdOutdated', crd: 'rollouts.argoproj.io', generatorAtLeast: '0.4.0' },
  stages: [
    {
      id: 'apply-rollout-crds',
      title: 'Apply the current rollout manifest',
      steps: [
        {
          kind: 'applyManifest',
          does: 'Apply the current rollout manifest (the rollout custom resource definitions)',
          risk: 'destructive',
          manifest: 'rollout',
          namespace: 'platformNamespace',
          exclude: [],
        },
        { kind: 'manual', does: 'Redeploy and check', risk: 'read-only', items: ['Redeploy the application, then check its deployment metrics (or enable application metrics again).'] },
      ],
    },
  ],
};
