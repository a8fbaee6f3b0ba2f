import type { ResourceKind } from './resources.js';
import { findKind, kinds } from './resources.js';
import type { ObjectStore } from './store.js';
import type { JsonObject, KubeObject } from './types.js';

/**
 * Custom resources exist only through their CustomResourceDefinitions, as in kube-apiserver: the
 * apiextensions server's handler (k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go)
 * looks up the CRD named `{plural}.{group}` for each request and serves the version only while the CRD
 * exists, serves that version and is Established; otherwise the request falls through to the not-found
 * handler. Discovery is built from the same CRDs, so it always agrees with what is served.
 */

interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  subresources?: { status?: unknown; scale?: unknown };
}

interface CrdSpec {
  group?: string;
  scope?: string;
  names?: { plural?: string; singular?: string; kind?: string; shortNames?: string[]; categories?: string[] };
  versions?: CrdVersion[];
}

function specOf(crd: KubeObject): CrdSpec {
  return (crd['spec'] as CrdSpec | undefined) ?? {};
}

function established(crd: KubeObject): boolean {
  const conditions = ((crd['status'] as { conditions?: Array<{ type?: string; status?: string }> } | undefined)?.conditions ?? []);
  return conditions.some((c) => c.type === 'Established' && c.status === 'True');
}

/** The kinds one CRD serves: one per served version, none until it is Established or when its name does not match. */
export function kindsOfCrd(crd: KubeObject): ResourceKind[] {
  const spec = specOf(crd);
  const group = spec.group ?? '';
  const names = spec.names ?? {};
  const plural = names.plural ?? '';
  if (!group || !plural || !names.kind || crd.metadata.name !== `${plural}.${group}` || !established(crd)) return [];
  return (spec.versions ?? [])
    .filter((v) => v.served === true && typeof v.name === 'string')
    .map((v) => ({
      group,
      version: v.name ?? '',
      plural,
      singular: names.singular ?? plural,
      kind: names.kind ?? '',
      namespaced: spec.scope !== 'Cluster',
      ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
      ...(names.categories?.length ? { categories: names.categories } : {}),
      ...(v.subresources?.status !== undefined ? { statusSubresource: true } : {}),
      custom: true,
    }));
}

/** Every custom kind the cluster serves now, from its stored CRDs. */
export function servedCustomKinds(store: ObjectStore): ResourceKind[] {
  return store.list(kinds.crd).flatMap(kindsOfCrd);
}

/** Built-in kinds and the custom kinds whose CRDs are established, as discovery and routing see them. */
export function findServedKind(store: ObjectStore, group: string, version: string, plural: string): ResourceKind | undefined {
  return findKind(group, version, plural) ?? servedCustomKinds(store).find((k) => k.group === group && k.version === version && k.plural === plural);
}

/**
 * What the apiextensions controllers write into a new CRD's status at once: names accepted and the CRD
 * Established (a real server takes a moment; nothing here waits for it).
 */
export function admitCrd(crd: KubeObject): void {
  const spec = specOf(crd);
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const condition = (type: string, reason: string, message: string): JsonObject => ({ type, status: 'True', lastTransitionTime: now, reason, message });
  crd['status'] = {
    acceptedNames: spec.names ?? {},
    conditions: [condition('NamesAccepted', 'NoConflicts', 'no conflicts found'), condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted')],
    storedVersions: (spec.versions ?? []).filter((v) => v.storage === true).map((v) => v.name ?? ''),
  };
}

/**
 * The CRD's objects go with it (the apiextensions finalizer `customresourcecleanup` deletes them before
 * the CRD itself is removed; here they go at once).
 */
export function deleteCustomObjectsOf(store: ObjectStore, crd: KubeObject): void {
  const [kind] = kindsOfCrd(crd);
  if (!kind) return;
  for (const obj of store.list(kind)) store.delete(kind, obj.metadata.namespace, obj.metadata.name ?? '');
}
