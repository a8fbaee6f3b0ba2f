import type { ResourceKind } from './resources.js';
import { deleteCustomObjectsOf } from './custom-resources.js';
import { kinds } from './resources.js';
import type { ObjectStore } from './store.js';
import type { PodTermination } from './termination.js';
import type { KubeObject } from './types.js';

/** How a deletion treats the objects that name the deleted one as their owner. */
export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

/**
 * batch/v1 Jobs still orphan their pods unless told otherwise (a legacy default the API server warns about);
 * everything else cascades in the background.
 */
export function defaultPropagation(kind: ResourceKind): PropagationPolicy {
  return kind === kinds.job ? 'Orphan' : 'Background';
}

export const orphanedJobPodsWarning =
  '299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"';

/**
 * Deletes one object and then, as the garbage collector would, its dependents (or strips their owner
 * reference when orphaning). The owner goes first so that controllers never replace the dependents.
 */
export function deleteCascading(
  store: ObjectStore,
  kind: ResourceKind,
  namespace: string | undefined,
  name: string,
  policy: PropagationPolicy,
  /** Absent while the platform's world sets a state up: dependents then go at once. */
  pods?: PodTermination,
): KubeObject {
  const deleted = store.delete(kind, namespace, name);
  const uid = deleted.metadata.uid;
  if (kind === kinds.namespace) {
    for (const k of store.storedKinds().filter((r) => r.namespaced)) {
      for (const obj of store.list(k, name)) store.delete(k, name, obj.metadata.name ?? '');
    }
    return deleted;
  }
  if (kind === kinds.crd) deleteCustomObjectsOf(store, deleted);
  for (const { kind: depKind, object } of [...store.everything()]) {
    const refs = object.metadata.ownerReferences ?? [];
    if (!refs.some((r) => r.uid === uid)) continue;
    const depName = object.metadata.name ?? '';
    if (policy === 'Orphan') {
      const current = store.get(depKind, object.metadata.namespace, depName);
      if (!current) continue;
      current.metadata.ownerReferences = refs.filter((r) => r.uid !== uid);
      if (current.metadata.ownerReferences.length === 0) delete current.metadata.ownerReferences;
      store.update(depKind, current);
    } else if (depKind === kinds.pod && pods) {
      // The collector deletes with default options: a dependent pod on a node terminates gracefully.
      if (store.get(depKind, object.metadata.namespace, depName)) pods.delete(object.metadata.namespace ?? '', depName, undefined);
    } else if (store.get(depKind, object.metadata.namespace, depName)) {
      deleteCascading(store, depKind, object.metadata.namespace, depName, 'Background', pods);
    }
  }
  return deleted;
}
