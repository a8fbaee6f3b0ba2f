import type { KubeObject } from '../apiserver/types.js';

/**
 * The rollout custom resource definition, trimmed to what tells its versions apart. The platform's
 * fix for entry 2 (devtron-labs/devtron#1086, commit 4555196bb2, "Fixed Rollout CRDs for configmaps",
 * in manifests/yamls/rollout.yaml since v0.3.13) replaced the typed schema of the pod template's
 * `volumes` with `x-kubernetes-preserve-unknown-fields: true`, so a data volume from a ConfigMap or
 * Secret validates; the outdated CRD still types every volume source.
 */
export function rolloutCrd(version: 'current' | 'outdated'): KubeObject {
  const current = version === 'current';
  const specProperties: Record<string, unknown> = {
    replicas: { type: 'integer', format: 'int32' },
    selector: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    strategy: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    template: {
      type: 'object',
      properties: {
        metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        spec: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: {
            volumes: current
              ? { 'x-kubernetes-preserve-unknown-fields': true }
              : { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, configMap: { type: 'object', properties: { name: { type: 'string' } } } }, required: ['name'] } },
          },
        },
      },
    },
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

type Schema = { properties?: Record<string, Schema>; 'x-kubernetes-preserve-unknown-fields'?: boolean };

/** Whether a stored rollout CRD has the fix: the pod template's `volumes` keeps unknown fields. */
export function rolloutCrdIsCurrent(crd: KubeObject | undefined): boolean {
  const versions = ((crd?.['spec'] as { versions?: unknown[] } | undefined)?.versions ?? []) as Array<{ schema?: { openAPIV3Schema?: Schema } }>;
  const volumes = (s: Schema | undefined) => s?.properties?.['spec']?.properties?.['template']?.properties?.['spec']?.properties?.['volumes'];
  return versions.some((v) => volumes(v.schema?.openAPIV3Schema)?.['x-kubernetes-preserve-unknown-fields'] === true);
}
