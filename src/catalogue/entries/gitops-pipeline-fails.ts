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
    // Not this remedy: the GitOps controller not installed at all (its secret key missing), or the race on
    // a first automatic deployment fixed in code. Sources: devtron-labs/devtron#4695 ("server.secretkey is
    // missing": the argo-cd integration was not installed), #2599 ("argocd app already exists" on the
    // first deployment).
    excludes: ['server.secretkey is missing', 'app already exists'],
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
