import type { CatalogueEntry } from '../model.js';

/** Guide 7.21: the cloud ingress closes terminal connections after its 30 s backend timeout. */
export const terminalDisconnects: CatalogueEntry = {
  id: 'terminal-disconnects',
  ref: '7.21',
  // The remedy raises the timeout of the platform terminal's backend: a websocket of anything else behind a
  // cloud load balancer (a user's own service, another product's console) closes the same way.
  subject: { names: ['terminal'], platform: false },
  title: 'Pod or cluster terminal drops every 30 seconds (cloud ingress of class gce)',
  symptom: 'The pod or cluster terminal disconnects every 30 seconds behind a cloud ingress of class gce.',
  cause: 'The default backend timeout (timeoutSec) is 30 seconds.',
  signatures: {
    errors: [],
    phrases: [
      'terminal disconnects every 30 seconds',
      'pod terminal drops',
      'cluster terminal keeps closing',
      'terminal session closes after 30 seconds',
      'websocket closes after 30 seconds',
      'terminal drops every 30 seconds',
      'terminal disconnects after 30 seconds',
      'terminal disconnected',
      'terminal keeps disconnecting',
      'terminal keeps reconnecting',
    ],
    context: [
      'gce',
      'gke',
      'ingress',
      'terminal',
      'websocket',
      'timeoutsec',
      'backendconfig',
      'sockjs',
      'code=1006',
      'code: 1006',
      'backend-config',
    ],
    excludes: [
      'ingress-nginx',
      'nginx ingress',
      'proxy-read-timeout',
      'aks',
      'eks',
      'alb.ingress.kubernetes.io',
      'idle_timeout.timeout_seconds',
      'application gateway',
      'cloudflare',
    ],
    // Downstream: the terminal's websocket (sockjs) is cut by the load balancer, which the browser reports
    // as an abnormal close (code 1006) about 30 s after it opened. Only a gce ingress has this backend
    // timeout and BackendConfig: behind an AWS ALB (its idle timeout), Azure's Application Gateway or
    // Cloudflare the same drop has another setting. Sources: docs/FAQs/devtron-troubleshoot.md §24,
    // devtron-labs/devtron#3260, kubernetes/ingress-gce#36 ("WebSocket: connection is broken CloseEvent …
    // code: 1006"), the GKE BackendConfig documentation (timeoutSec, default 30), devtron-labs/devtron#3314
    // (intermittent drops on EKS, solved by HTTP/2 on the ingress), kubeblogs.com on GKE's 30-second timeout.
  },
  params: [
    { name: 'timeout', description: 'the backend timeout in seconds', default: '1800', pattern: '^[1-9][0-9]{1,4}$', example: '3600' },
    { name: 'name', description: 'the name of the backend configuration', default: 'devtron-backendconfig', pattern: '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$', example: 'devtron-backendconfig' },
  ],
  detector: { kind: 'gceBackendTimeout', namespace: 'platformNamespace' },
  stages: [
    {
      id: 'longer-timeout',
      title: 'Give the platform service a backend configuration with a longer timeout',
      steps: [
        {
          kind: 'createBackendConfig',
          does: 'Create a backend configuration with a larger timeoutSec in the platform namespace',
          risk: 'destructive',
          approval: 'approver',
          namespace: 'platformNamespace',
          nameParam: 'name',
          timeoutParam: 'timeout',
        },
        {
          kind: 'annotate',
          does: 'Add the backend-config annotation to the platform service',
          risk: 'destructive',
          approval: 'approver',
          resource: 'services',
          namespace: 'platformNamespace',
          select: 'platform',
          annotations: { 'cloud.google.com/backend-config': { param: 'name', template: '{"default":"{}"}' } },
        },
      ],
    },
  ],
};
