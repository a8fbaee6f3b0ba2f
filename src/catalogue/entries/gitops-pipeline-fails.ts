import type { CatalogueEntry } from '../model.js';

/** Guide 7.28: the GitOps module was installed after GitOps was configured for external apps. */
export const gitopsPipelineFails: CatalogueEntry = {
  id: 'gitops-pipeline-fails',
  ref: '7.28',
  title: 'GitOps pipeline cannot be created, or GitOps deployments error',
  symptom: 'A GitOps pipeline cannot be created, or GitOps deployments fail.',
  cause: 'The GitOps module was installed after GitOps was configured for external apps.',
  signatures: {
    errors: [],
    phrases: ['gitops pipeline cannot be created', 'cannot create gitops pipeline', 'gitops deployment error', 'gitops deployments fail'],
    context: ['gitops', 'argocd', 'pipeline', 'module'],
  },
  detector: {
    kind: 'notObservable',
    where: 'platform-ui',
    check: 'In Global Configurations: was the GitOps module installed after GitOps was configured? Save the GitOps and the cluster configuration again.',
  },
  stages: [
    {
      id: 'save-again',
      title: 'Save the GitOps and cluster configurations again',
      steps: [
        { kind: 'manual', does: 'Save the configurations again', risk: 'read-only', items: ['Save the GitOps configuration again.', 'Save the cluster configuration again.'] },
      ],
    },
  ],
};
