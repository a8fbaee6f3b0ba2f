import type { ResourceRef } from './types.js';

/**
 * One kind of resource the simulator serves. Adding a kind is one line in `resourceKinds`;
 * discovery, routing, RBAC and storage are all derived from this table.
 */
export interface ResourceKind {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  /** Writes to the main endpoint keep status; only the `/status` subresource changes it (as in Kubernetes). */
  statusSubresource?: boolean;
  /** A custom resource: served like a CRD, so strategic merge patch is refused with 415. */
  custom?: boolean;
  /**
   * Extra subresources: `log` (pods, read-only), `exec`/`attach`/`portforward` (pods, upgraded streams) and
   * `scale` (autoscaling/v1 Scale, read and write).
   */
  subresources?: string[];
  /**
   * Discovery categories. Built-in workloads and their pods and services are in `all` (their storage's
   * Categories() in pkg/registry/.../storage/storage.go); CRDs only when they declare it, and the platform's don't.
   */
  categories?: string[];
}

/** Every kind supports the full set of verbs, as a built-in or CRD-served resource does. */
const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
export const resourceVerbs: readonly string[] = all;

export const resourceKinds: readonly ResourceKind[] = [
  { group: '', version: 'v1', plural: 'namespaces', singular: 'namespace', kind: 'Namespace', namespaced: false, shortNames: ['ns'], statusSubresource: true },
  { group: '', version: 'v1', plural: 'nodes', singular: 'node', kind: 'Node', namespaced: false, shortNames: ['no'], statusSubresource: true },
  { group: '', version: 'v1', plural: 'pods', singular: 'pod', kind: 'Pod', namespaced: true, shortNames: ['po'], statusSubresource: true, subresources: ['log', 'exec', 'attach', 'portforward'], categories: ['all'] },
  { group: '', version: 'v1', plural: 'secrets', singular: 'secret', kind: 'Secret', namespaced: true },
  { group: '', version: 'v1', plural: 'configmaps', singular: 'configmap', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
  { group: '', version: 'v1', plural: 'services', singular: 'service', kind: 'Service', namespaced: true, shortNames: ['svc'], statusSubresource: true, categories: ['all'] },
  { group: '', version: 'v1', plural: 'serviceaccounts', singular: 'serviceaccount', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'] },
  { group: '', version: 'v1', plural: 'persistentvolumeclaims', singular: 'persistentvolumeclaim', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'], statusSubresource: true },
  { group: '', version: 'v1', plural: 'events', singular: 'event', kind: 'Event', namespaced: true, shortNames: ['ev'] },
  { group: 'apps', version: 'v1', plural: 'deployments', singular: 'deployment', kind: 'Deployment', namespaced: true, categories: ['all'], shortNames: ['deploy'], statusSubresource: true, subresources: ['scale'] },
  { group: 'apps', version: 'v1', plural: 'statefulsets', singular: 'statefulset', kind: 'StatefulSet', namespaced: true, categories: ['all'], shortNames: ['sts'], statusSubresource: true, subresources: ['scale'] },
  { group: 'apps', version: 'v1', plural: 'replicasets', singular: 'replicaset', kind: 'ReplicaSet', namespaced: true, categories: ['all'], shortNames: ['rs'], statusSubresource: true, subresources: ['scale'] },
  { group: 'batch', version: 'v1', plural: 'jobs', singular: 'job', kind: 'Job', namespaced: true, statusSubresource: true, categories: ['all'] },
  { group: 'networking.k8s.io', version: 'v1', plural: 'ingresses', singular: 'ingress', kind: 'Ingress', namespaced: true, shortNames: ['ing'], statusSubresource: true },
  { group: 'storage.k8s.io', version: 'v1', plural: 'storageclasses', singular: 'storageclass', kind: 'StorageClass', namespaced: false, shortNames: ['sc'] },
  { group: 'installer.devtron.ai', version: 'v1alpha1', plural: 'installers', singular: 'installer', kind: 'Installer', namespaced: true, custom: true },
  { group: 'argoproj.io', version: 'v1alpha1', plural: 'rollouts', singular: 'rollout', kind: 'Rollout', namespaced: true, shortNames: ['ro'], custom: true, statusSubresource: true },
  { group: 'cloud.google.com', version: 'v1', plural: 'backendconfigs', singular: 'backendconfig', kind: 'BackendConfig', namespaced: true, custom: true },
  // Served so that the rollout manifest (entry 2) can be applied; the custom kinds above stay served regardless.
  { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', singular: 'customresourcedefinition', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'], statusSubresource: true },
];

export function apiVersionOf(kind: Pick<ResourceKind, 'group' | 'version'>): string {
  return kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
}

/** `pods`, or `deployments.apps`: how Kubernetes names a resource in error messages. */
export function qualifiedName(kind: ResourceKind): string {
  return kind.group === '' ? kind.plural : `${kind.plural}.${kind.group}`;
}

/** The store's key for a kind; versions of one group share storage, as in Kubernetes. */
export function storageKey(kind: Pick<ResourceRef, 'group' | 'plural'>): string {
  return `${kind.group}/${kind.plural}`;
}

export function findKind(group: string, version: string, plural: string): ResourceKind | undefined {
  return resourceKinds.find((k) => k.group === group && k.version === version && k.plural === plural);
}

/** Finds a kind from a reference; throws because an unknown reference in code is a bug, not a runtime outcome. */
export function kindOf(ref: Pick<ResourceRef, 'group' | 'plural'> & { version?: string }): ResourceKind {
  const found = resourceKinds.find((k) => k.group === ref.group && k.plural === ref.plural && (ref.version === undefined || k.version === ref.version));
  if (!found) throw new Error(`the simulated cluster does not serve ${ref.plural} in group "${ref.group}"`);
  return found;
}

export function kindByKind(apiVersion: string, kindName: string): ResourceKind | undefined {
  return resourceKinds.find((k) => apiVersionOf(k) === apiVersion && k.kind === kindName);
}

/** Shorthands the simulator's own code uses. */
export const kinds = {
  namespace: kindOf({ group: '', plural: 'namespaces' }),
  node: kindOf({ group: '', plural: 'nodes' }),
  pod: kindOf({ group: '', plural: 'pods' }),
  secret: kindOf({ group: '', plural: 'secrets' }),
  configMap: kindOf({ group: '', plural: 'configmaps' }),
  service: kindOf({ group: '', plural: 'services' }),
  pvc: kindOf({ group: '', plural: 'persistentvolumeclaims' }),
  deployment: kindOf({ group: 'apps', plural: 'deployments' }),
  statefulSet: kindOf({ group: 'apps', plural: 'statefulsets' }),
  replicaSet: kindOf({ group: 'apps', plural: 'replicasets' }),
  job: kindOf({ group: 'batch', plural: 'jobs' }),
  ingress: kindOf({ group: 'networking.k8s.io', plural: 'ingresses' }),
  storageClass: kindOf({ group: 'storage.k8s.io', plural: 'storageclasses' }),
  installer: kindOf({ group: 'installer.devtron.ai', plural: 'installers' }),
  rollout: kindOf({ group: 'argoproj.io', plural: 'rollouts' }),
  backendConfig: kindOf({ group: 'cloud.google.com', plural: 'backendconfigs' }),
  crd: kindOf({ group: 'apiextensions.k8s.io', plural: 'customresourcedefinitions' }),
  serviceAccount: kindOf({ group: '', plural: 'serviceaccounts' }),
  event: kindOf({ group: '', plural: 'events' }),
} as const;
