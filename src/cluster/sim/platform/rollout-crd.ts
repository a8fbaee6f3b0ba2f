import type { KubeObject } from '../apiserver/types.js';

/**
 * The rollout custom resource definition, trimmed to what tells its versions apart: current CRDs
 * describe `spec.workloadRef` (rollouts that reference a Deployment, argo-rollouts 1.0 and later);
 * the outdated one of entry 2 does not, and carries the old generator version.
 */
export function rolloutCrd(version: 'current' | 'outdated'): KubeObject {
  const current = version === 'current';
  const specProperties: Record<string, unknown> = {
    replicas: { type: 'integer', format: 'int32' },
    selector: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    strategy: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    template: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    ...(current ? { workloadRef: { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' } } } } : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: 'rollouts.argoproj.io',
      annotations: { 'controller-gen.kubebuilder.io/version': current ? 'v0.7.0' : 'v0.2.4' },
      labels: { 'app.kubernetes.io/name': 'argo-rollouts', 'app.kubernetes.io/part-of': 'argo-rollouts' },
    },
    spec: {
      group: 'argoproj.io',
      names: { kind: 'Rollout', listKind: 'RolloutList', plural: 'rollouts', singular: 'rollout', shortNames: ['ro'] },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: specProperties }, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
        },
      ],
    },
  };
}

/** Whether a stored rollout CRD is current enough: its schema describes `spec.workloadRef`. */
export function rolloutCrdIsCurrent(crd: KubeObject | undefined): boolean {
  const versions = ((crd?.['spec'] as { versions?: unknown[] } | undefined)?.versions ?? []) as Array<{
    schema?: { openAPIV3Schema?: { properties?: { spec?: { properties?: Record<string, unknown> } } } };
  }>;
  return versions.some((v) => v.schema?.openAPIV3Schema?.properties?.spec?.properties?.['workloadRef'] !== undefined);
}
