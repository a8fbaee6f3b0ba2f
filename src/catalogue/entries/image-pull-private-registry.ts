import type { CatalogueEntry } from '../model.js';

/** Guide 7.20 and 5.7: pulls from a private registry fail for lack of credentials in the cluster. */
export const imagePullPrivateRegistry: CatalogueEntry = {
  id: 'image-pull-private-registry',
  ref: '7.20',
  alsoRefs: ['5.7'],
  title: 'Deployment Failed or Degraded; pod in ImagePullBackOff (private registry)',
  symptom: 'The deployment status is Failed or Degraded and a pod shows ImagePullBackOff from a private registry.',
  cause: 'The registry credentials lack pull permission or are invalid.',
  signatures: {
    errors: ['pull access denied', 'unauthorized: authentication required', 'no basic auth credentials', 'denied: requested access to the resource is denied'],
    phrases: ['imagepullbackoff private registry', 'cannot pull from private registry', 'deployment degraded imagepullbackoff'],
    context: ['ImagePullBackOff', 'ErrImagePull', 'registry', 'ecr', 'docker', 'Degraded'],
    excludes: ['manifest unknown', 'not found: manifest'],
  },
  stages: [
    {
      id: 'inject-credentials',
      title: 'Auto-inject the registry credentials into the cluster',
      steps: [
        {
          kind: 'manual',
          does: 'Give the cluster the registry credentials',
          risk: 'read-only',
          items: [
            "On App Details click 'How to resolve?' then 'Manage Access'.",
            "In Container Registries select the registry, Manage; under 'Auto-inject credentials to clusters' click 'Confirm to edit', choose the clusters (or all) and Save.",
            'Redeploy the application.',
          ],
        },
      ],
    },
  ],
};
