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
    ],
    context: [
      'rollout',
      'rollouts.argoproj.io',
      'crd',
      'configmap',
      'secret',
      'volume',
      'data volume',
    ],
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
