import type { CatalogueEntry } from '../model.js';

/** Guide 7.13: the cloud load-balancer controller lacks IAM permissions. */
export const loadBalancerUnauthorized: CatalogueEntry = {
  id: 'load-balancer-unauthorized',
  ref: '7.13',
  appliesTo: 'any-product',
  title: "Load-balancer controller cannot provision a balancer: 'unauthorized'",
  symptom: "The cloud load-balancer controller cannot provision a load balancer and reports 'unauthorized'.",
  cause: 'The node group IAM role lacks the required permissions.',
  signatures: {
    errors: [
      'is not authorized to perform: elasticloadbalancing',
    ],
    phrases: [
      'UnauthorizedOperation',
      'AccessDenied: User',
      'load balancer controller unauthorized',
      'cannot provision load balancer',
      'alb not created',
      'load balancer not provisioned',
    ],
    context: [
      'aws-load-balancer-controller',
      'elasticloadbalancing',
      'alb',
      'load balancer',
      'targetgroup',
      'ingress',
    ],
  },
  detector: {
    kind: 'notObservable',
    where: 'cloud-console',
    check: "In the cloud console: check the node group's IAM role carries the load-balancer controller's policy.",
  },
  stages: [
    {
      id: 'attach-policy',
      title: 'Attach the IAM policy to the node group role',
      steps: [
        {
          kind: 'manual',
          does: 'Attach the required IAM policy in the cloud console',
          risk: 'read-only',
          items: [
            "In the cloud console, attach the load-balancer controller's IAM policy to the node group's IAM role (the guide does not give the policy's content; use the controller's published policy).",
            'Wait for the controller to retry, or restart it, and check the load balancer is provisioned.',
          ],
        },
      ],
    },
  ],
};
