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
      'no identity-based policy allows the elasticloadbalancing',
      'Failed deploy model due to AccessDenied',
      'Failed build model due to AccessDenied',
      'Failed deploy model due to UnauthorizedOperation',
      'Failed build model due to UnauthorizedOperation',
      // The cloud provider's own service controller (the in-tree one, or the cloud controller manager) is
      // the other load-balancer controller: it provisions with the node or control-plane role, whose
      // missing permission it reports the same way, often for the balancers' service-linked role
      // (tune: scholzj/aws-minikube, kops threads of the sixth round; Kubernetes' legacy AWS provider).
      'failed to ensure load balancer: AccessDenied',
      'failed to ensure load balancer: UnauthorizedOperation',
      'iam:CreateServiceLinkedRole on resource: arn:aws:iam::',
    ],
    phrases: [
      'UnauthorizedOperation',
      'AccessDenied: User',
      'load balancer controller unauthorized',
      'cannot provision load balancer',
      'alb not created',
      'load balancer not provisioned',
      'alb controller fails to create load balancer',
      'ingress has no address',
    ],
    context: [
      'aws-load-balancer-controller',
      'elasticloadbalancing',
      'alb',
      'load balancer',
      'targetgroup',
      'ingress',
      'alb-ingress-controller',
      'elbv2',
      'FailedDeployModel',
      'FailedBuildModel',
      'iam_policy.json',
      // The service name in the controller's AWS SDK v2 errors ("operation error Elastic Load Balancing v2:
      // CreateLoadBalancer, https response error StatusCode: 403 … api error AccessDenied") and its CRDs' groups.
      'Elastic Load Balancing v2',
      'elbv2.k8s.aws',
      'ingress.k8s.aws',
    ],
    // Downstream: the controller calls EC2, WAF, Shield, tagging and IAM as well as ELB, so a policy that
    // lacks one of them fails there, and sometimes only as an InternalFailure (status 500) while it leaves a
    // target group behind and the ingress without an address. Not this remedy: a role the controller
    // cannot assume (sts:AssumeRoleWithWebIdentity, a trust-policy or OIDC matter). The in-tree cloud
    // provider's "Error syncing load balancer" is the entry's when it is a permission refused: that
    // controller runs as the nodes' or control plane's instance role, the role the guide's cause names
    // (tack#178, kops#17702, scholzj/aws-minikube: a policy attached to that role fixed it). Sources:
    // kubernetes-sigs/aws-load-balancer-controller#3242 (only "Failed deploy model due to InternalFailure";
    // the maintainer finds shield:GetSubscriptionState denied), #924 (tag:GetResources: "the controller
    // lacks permissions"), #3399 and #3339 and #2240 (AccessDenied / UnauthorizedOperation events), #1935
    // and #2240 (WebIdentityErr: the service account's role annotation and trust), aws/eks-charts#742,
    // interuss/dss#1127 (DescribeListenerAttributes after a controller upgrade),
    // docs/FAQs/devtron-troubleshoot.md §14.
    downstream: [
      'Failed deploy model due to InternalFailure',
      // The gap told in words, beside the controller's actions ("the policy does not have this permission:
      // elasticloadbalancing:DescribeListenerCertificates"): weak alone, the entry's with its context.
      'does not have this permission',
      'does not have the permission',
      'is missing the permission',
      'lacks the permission',
      'is not authorized to perform: ec2:',
      'is not authorized to perform: shield:',
      'is not authorized to perform: wafv2:',
      'is not authorized to perform: waf-regional:',
      'is not authorized to perform: tag:GetResources',
      'is not authorized to perform: iam:CreateServiceLinkedRole',
      // The policy's other families (docs/install/iam_policy.json): certificate discovery and Cognito auth.
      'is not authorized to perform: acm:',
      'is not authorized to perform: cognito-idp:',
      'is not authorized to perform: iam:ListServerCertificates',
      'is not authorized to perform: iam:GetServerCertificate',
      'Encoded authorization failure message',
      'AccessDeniedException',
    ],
    excludes: [
      // The principal refused is CloudFormation's own session (a stack creating the balancer), not the controller's
      // role: the stack's role is the one to grant (tune: a CLI's stack denied iam:CreateServiceLinkedRole).
      '/AWSCloudFormation is not authorized',
      // IAM refuses the policy document itself when it is created (MalformedPolicyDocument): the document is
      // replaced, nothing is attached yet (tune: an EKS workshop's outdated policy "will result malform error").
      'malform',
      'sts:AssumeRoleWithWebIdentity',
      'WebIdentityErr',
      // Subnets the controller cannot use (their tags or free addresses, pkg/networking/subnet_resolver.go)
      // and a region it cannot read from the instance metadata (pkg/aws/cloud.go): no policy fixes those.
      'unable to resolve at least one subnet',
      'failed to introspect region from EC2Metadata',
      // An explicit deny wins over any allow (AWS IAM's policy evaluation logic): AWS names it in the error
      // ("… with an explicit deny in a service control policy", "… in an identity-based policy"), and no
      // policy attached to the controller's role lifts it; a missing allow reads "because no identity-based
      // policy allows …".
      'with an explicit deny',
      // Cluster API's AWS provider builds the API server's load balancer with its own role (its
      // AWSIAMConfiguration), not the load-balancer controller's: kubernetes-sigs/cluster-api-provider-aws.
      'cluster-api-provider-aws',
      'AWSClusterRoleIdentity',
      'AWSClusterControllerIdentity',
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
