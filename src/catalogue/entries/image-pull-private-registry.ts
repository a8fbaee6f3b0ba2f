import type { CatalogueEntry } from '../model.js';

/** Guide 7.20 and 5.7: pulls from a private registry fail for lack of credentials in the cluster. */
export const imagePullPrivateRegistry: CatalogueEntry = {
  id: 'image-pull-private-registry',
  ref: '7.20',
  appliesTo: 'platform-apps',
  alsoRefs: ['5.7'],
  // The guide's symptom is the platform's view of an app (its deployment status Failed or Degraded, App Details' "How to
  // resolve?"): the kubelet's refusal alone is any cluster's and any registry's, and on real pastes that neither name the
  // platform nor show one of its apps it was never the platform's (test/fixtures/real, tune part: 0 of 7).
  subject: { names: ['deployment status', 'degraded', 'app status', 'app details', 'how to resolve', 'manage access', 'auto-inject'], platform: true, builtImage: true },
  title: 'Deployment Failed or Degraded; pod in ImagePullBackOff (private registry)',
  symptom: 'The deployment status is Failed or Degraded and a pod shows ImagePullBackOff from a private registry.',
  cause: 'The registry credentials lack pull permission or are invalid.',
  signatures: {
    errors: [
      'pull access denied',
      'unauthorized: authentication required',
      'no basic auth credentials',
      'denied: requested access to the resource is denied',
      "may require 'docker login'",
      'failed to fetch anonymous token',
      'failed to fetch oauth token',
      'failed to authorize',
      'unauthorized: incorrect username or password',
      'your authorization token has expired',
    ],
    phrases: [
      'imagepullbackoff private registry',
      'cannot pull from private registry',
      'deployment degraded imagepullbackoff',
      'private registry imagepullbackoff',
      'registry credentials not injected',
      'Error: ImagePullBackOff',
      'Error: ErrImagePull',
      'failed to pull image',
      'ImagePullBackOff',
    ],
    context: [
      'private registry',
      'registry',
      'ecr',
      'acr',
      'gcr',
      'harbor',
      '401 unauthorized',
      '403 forbidden',
      'unauthorized',
      'denied',
      'imagepullsecrets',
      'credentials',
      'Degraded',
      'how to resolve',
      'manage access',
      'auto-inject credentials',
    ],
    // The registry refused the credentials, or the person says the registry is private or lacks permission.
    requires: ['401', '403', 'unauthorized', 'denied', 'authentication required', 'no basic auth', 'authoriz', 'credential', 'private', 'permission', 'forbidden'],
    excludes: [
      'manifest unknown',
      'not found: manifest',
      ': not found',
      'toomanyrequests',
      'rate limit',
      'postgresql-postgresql',
      'bitnami/postgresql',
      'bitnami/minideb',
      'i/o timeout',
      'no such host',
      'server gave HTTP response to HTTPS client',
      'x509: certificate signed by unknown authority',
      // A write conflict on the pull secret the platform injects is a conflict, not a refusal of credentials.
      'the object has been modified',
      // A pull secret the person makes by hand (the Kubernetes documentation's recipe) is another path than
      // the platform's injected credentials, and its own mistakes (a robot account's `$` unescaped, the wrong
      // server) are not mended by injecting them: real threads of plain Kubernetes with Harbor and Nexus.
      'create secret docker-registry',
      '--docker-server',
      'regcred',
    ],
    // A pull that cannot reach the registry, resolve its name or trust its certificate fails before any
    // credential is read: credentials injected to the cluster change nothing. Sources: the Kubernetes
    // documentation on ImagePullBackOff and on pulling from a private registry, containerd's "failed to do
    // request … dial tcp … i/o timeout" (shameed1910/springboot-postgres-k8s#1), Docker's insecure-registry
    // documentation ("server gave HTTP response to HTTPS client").
  },
  detector: {
    kind: 'imagePullFailing',
    pods: { in: 'cluster' },
    // The registry's refusals as the kubelet reports them in ErrImagePull and its Failed events.
    messages: ['401', '403', 'unauthorized', 'denied', 'authentication required', 'no basic auth credentials', 'authorization failed'],
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
