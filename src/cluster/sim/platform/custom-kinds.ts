import type { ResourceKind } from '../apiserver/resources.js';
import type { KubeObject } from '../apiserver/types.js';

/**
 * The custom resources of the platform's world. The API server serves each only while its
 * CustomResourceDefinition exists (apiserver/custom-resources.ts), so a cluster without Argo Rollouts,
 * or one outside GKE, answers 404 for rollouts or backend configurations, as a real one does.
 */
export const customKinds = {
  installer: { group: 'installer.devtron.ai', version: 'v1alpha1', plural: 'installers', singular: 'installer', kind: 'Installer', namespaced: true, custom: true },
  rollout: { group: 'argoproj.io', version: 'v1alpha1', plural: 'rollouts', singular: 'rollout', kind: 'Rollout', namespaced: true, shortNames: ['ro'], custom: true, statusSubresource: true },
  backendConfig: { group: 'cloud.google.com', version: 'v1', plural: 'backendconfigs', singular: 'backendconfig', kind: 'BackendConfig', namespaced: true, custom: true },
} as const satisfies Record<string, ResourceKind>;

/** A CRD for one of the kinds above, with a schema that keeps whatever it is given. */
export function crdOf(kind: ResourceKind, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${kind.plural}.${kind.group}`, labels },
    spec: {
      group: kind.group,
      names: { kind: kind.kind, listKind: `${kind.kind}List`, plural: kind.plural, singular: kind.singular, ...(kind.shortNames ? { shortNames: kind.shortNames } : {}) },
      scope: kind.namespaced ? 'Namespaced' : 'Cluster',
      versions: [
        {
          name: kind.version,
          served: true,
          storage: true,
          ...(kind.statusSubresource ? { subresources: { status: {} } } : {}),
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}
