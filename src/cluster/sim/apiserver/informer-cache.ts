import type { ResourceKind } from './resources.js';
import type { Scheduler } from './scheduler.js';
import type { ObjectStore } from './store.js';
import type { KubeObject } from './types.js';

/**
 * One kind as an admission plugin's informer sees it: the store's objects, but each change arriving
 * `lagMs` after it was made. kube-apiserver's PersistentVolumeClaimResize plugin reads StorageClasses from
 * such a cache (plugin/pkg/admission/storage/persistentvolume/resize/admission.go, `scLister`), so a claim
 * resized right after its class was made expandable can still be refused for a moment.
 */
export class InformerCache {
  private readonly seen = new Map<string, KubeObject>();
  private readonly unsubscribe: () => void;

  constructor(store: ObjectStore, kind: ResourceKind, scheduler: Scheduler, lagMs: () => number) {
    for (const obj of store.list(kind)) this.seen.set(keyOf(obj), obj);
    this.unsubscribe = store.subscribe((event) => {
      if (event.kind !== kind) return;
      const apply = () => (event.type === 'DELETED' ? this.seen.delete(keyOf(event.object)) : this.seen.set(keyOf(event.object), event.object));
      const lag = lagMs();
      if (lag <= 0) apply();
      else scheduler.after(lag, apply);
    });
  }

  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.seen.get(`${namespace ?? ''}/${name}`);
  }

  stop(): void {
    this.unsubscribe();
  }
}

function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}
