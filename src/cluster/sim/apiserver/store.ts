import { randomUUID } from 'node:crypto';
import type { ResourceKind } from './resources.js';
import { apiVersionOf, resourceKinds, storageKey } from './resources.js';
import { statusErrors } from './errors.js';
import type { KubeObject } from './types.js';
import { clone, deepEqual, kubeTime } from './types.js';

/** What a watch stream or a controller is told about one change. */
export interface StoreEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  kind: ResourceKind;
  object: KubeObject;
  /** The object before the change (MODIFIED only), so watchers can tell objects entering or leaving a selector. */
  previous?: KubeObject;
  resourceVersion: number;
}

/** How one store write behaves. */
export interface WriteOptions {
  dryRun?: boolean;
  /** Seeding only: keep the creationTimestamp given, so a fresh cluster can look days old. */
  keepCreationTimestamp?: boolean;
  /** A uid chosen before creation, for defaults that embed it (a Job's controller-uid selector). */
  uid?: string;
}

// Enough history for a watch that starts from a list taken a moment ago; older starts get 410 Expired, as in etcd.
const historyLimit = 5000;

/**
 * The cluster's state: one map per resource kind, a single resourceVersion counter shared by all kinds
 * (as etcd's revision is), and a short event history so watches can resume from a list's resourceVersion.
 */
export class ObjectStore {
  private revision = 1;
  /** The resourceVersion of the newest event no longer in the history. */
  private dropped = 0;
  /** One bucket per storage key: built-in kinds from the start, custom kinds from their first write. */
  private readonly buckets = new Map<string, Bucket>();
  private readonly history: StoreEvent[] = [];
  private readonly listeners = new Set<(event: StoreEvent) => void>();

  /** While set (only during seeding), new objects are dated to this moment instead of now. */
  seedTime: Date | undefined;

  constructor() {
    for (const kind of resourceKinds) this.buckets.set(storageKey(kind), new Bucket(kind));
  }

  get resourceVersion(): number {
    return this.revision;
  }

  /** Events after `resourceVersion`, or undefined when some have already been dropped from the history. */
  eventsSince(resourceVersion: number): StoreEvent[] | undefined {
    if (resourceVersion < this.dropped) return undefined;
    return this.history.filter((e) => e.resourceVersion > resourceVersion);
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(kind: ResourceKind, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.bucket(kind).get(keyOf(kind, namespace, name));
    return found ? clone(found) : undefined;
  }

  /**
   * Copies of the objects of a kind, in one namespace or all, that `where` accepts (it sees the stored
   * object: it must only read it), sorted by namespace then name as the API server returns them.
   */
  list(kind: ResourceKind, namespace?: string, where?: (stored: KubeObject) => boolean): KubeObject[] {
    return this.peek(kind, namespace, where).map((o) => clone(o));
  }

  /**
   * The stored objects themselves, selected and sorted as `list` does, without copying them: for a
   * caller that only reads them before it yields (the API server serialising a list), never keeps or
   * changes them. Copying every object of a large list cost more than serialising it.
   */
  peek(kind: ResourceKind, namespace?: string, where?: (stored: KubeObject) => boolean): readonly KubeObject[] {
    const found: { key: string; obj: KubeObject }[] = [];
    for (const [key, obj] of this.bucket(kind).in(namespace)) {
      if (where === undefined || where(obj)) found.push({ key, obj });
    }
    // etcd returns keys in byte order; the storage keys are `namespace/name` (or the name alone).
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((f) => f.obj);
  }

  /** Every stored object of every kind, for owner-reference scans. */
  *everything(): Generator<{ kind: ResourceKind; object: KubeObject }> {
    for (const { kind, objects } of [...this.buckets.values()]) {
      for (const object of [...objects.values()]) yield { kind, object: clone(object) };
    }
  }

  create(kind: ResourceKind, input: KubeObject, options: WriteOptions = {}): KubeObject {
    const name = input.metadata.name ?? '';
    const namespace = kind.namespaced ? input.metadata.namespace : undefined;
    const key = keyOf(kind, namespace, name);
    if (this.bucket(kind).has(key)) throw statusErrors.alreadyExists(kind, name);
    const obj = clone(input);
    obj.apiVersion = apiVersionOf(kind);
    obj.kind = kind.kind;
    const meta = obj.metadata;
    if (kind.namespaced) meta.namespace = namespace;
    else delete meta.namespace;
    meta.uid = options.uid ?? randomUUID();
    if (!options.keepCreationTimestamp || !meta.creationTimestamp) meta.creationTimestamp = kubeTime(this.seedTime);
    if (obj['spec'] !== undefined) meta.generation = 1;
    else delete meta.generation;
    delete meta.deletionTimestamp;
    if (options.dryRun) {
      delete meta.resourceVersion;
      return obj;
    }
    meta.resourceVersion = String(++this.revision);
    this.bucket(kind).set(key, obj);
    this.emit({ type: 'ADDED', kind, object: clone(obj), resourceVersion: this.revision });
    return clone(obj);
  }

  /**
   * Replaces an object. A resourceVersion in the input must match the stored one (optimistic concurrency);
   * identity fields are kept from the stored object and generation moves when the spec changes.
   */
  update(kind: ResourceKind, input: KubeObject, options: WriteOptions = {}): KubeObject {
    const name = input.metadata.name ?? '';
    const namespace = kind.namespaced ? input.metadata.namespace : undefined;
    const key = keyOf(kind, namespace, name);
    const current = this.bucket(kind).get(key);
    if (!current) throw statusErrors.notFound(kind, name);
    const wanted = input.metadata.resourceVersion;
    if (wanted !== undefined && wanted !== '' && wanted !== current.metadata.resourceVersion) throw statusErrors.conflict(kind, name);
    const obj = clone(input);
    obj.apiVersion = apiVersionOf(kind);
    obj.kind = kind.kind;
    const meta = obj.metadata;
    meta.uid = current.metadata.uid;
    meta.creationTimestamp = current.metadata.creationTimestamp;
    if (kind.namespaced) meta.namespace = namespace;
    const generation = current.metadata.generation;
    if (generation !== undefined) meta.generation = deepEqual(current['spec'], obj['spec']) ? generation : generation + 1;
    if (deepEqual(stripVersion(current), stripVersion(obj))) {
      // A no-op write does not move resourceVersion or wake watchers, as with the real API server.
      return clone(current);
    }
    if (options.dryRun) return obj;
    meta.resourceVersion = String(++this.revision);
    this.bucket(kind).set(key, obj);
    this.emit({ type: 'MODIFIED', kind, object: clone(obj), previous: clone(current), resourceVersion: this.revision });
    return clone(obj);
  }

  delete(kind: ResourceKind, namespace: string | undefined, name: string, options: WriteOptions = {}): KubeObject {
    const key = keyOf(kind, kind.namespaced ? namespace : undefined, name);
    const current = this.bucket(kind).get(key);
    if (!current) throw statusErrors.notFound(kind, name);
    if (options.dryRun) return clone(current);
    this.bucket(kind).delete(key);
    const gone = clone(current);
    gone.metadata.resourceVersion = String(++this.revision);
    this.emit({ type: 'DELETED', kind, object: clone(gone), resourceVersion: this.revision });
    return gone;
  }

  /** The kinds with storage, for scans across kinds (a namespace's deletion). */
  storedKinds(): ResourceKind[] {
    return [...this.buckets.values()].map((b) => b.kind);
  }

  private bucket(kind: ResourceKind): Bucket {
    const key = storageKey(kind);
    let bucket = this.buckets.get(key);
    if (!bucket && kind.custom) this.buckets.set(key, (bucket = new Bucket(kind)));
    if (!bucket) throw new Error(`no storage for ${key}`);
    return bucket;
  }

  private emit(event: StoreEvent): void {
    this.history.push(event);
    if (this.history.length > historyLimit) this.dropped = this.history.shift()?.resourceVersion ?? this.dropped;
    for (const listener of [...this.listeners]) listener(event);
  }
}

/**
 * One kind's objects by storage key, and the same objects by namespace, so that what one namespace
 * holds is found without walking every namespace's objects (a controller lists its namespace's pods
 * each time it reconciles; on a large cluster that walk was most of the work).
 */
class Bucket {
  readonly objects = new Map<string, KubeObject>();
  private readonly byNamespace = new Map<string, Map<string, KubeObject>>();

  constructor(readonly kind: ResourceKind) {}

  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  has(key: string): boolean {
    return this.objects.has(key);
  }

  /** Adds or replaces; an object's namespace never changes under the same key. */
  set(key: string, obj: KubeObject): void {
    this.objects.set(key, obj);
    const namespace = obj.metadata.namespace ?? '';
    let inNamespace = this.byNamespace.get(namespace);
    if (!inNamespace) this.byNamespace.set(namespace, (inNamespace = new Map()));
    inNamespace.set(key, obj);
  }

  delete(key: string): void {
    const obj = this.objects.get(key);
    if (!obj) return;
    this.objects.delete(key);
    const namespace = obj.metadata.namespace ?? '';
    const inNamespace = this.byNamespace.get(namespace);
    inNamespace?.delete(key);
    if (inNamespace?.size === 0) this.byNamespace.delete(namespace);
  }

  /** Every object, or those of one namespace (none for a cluster-scoped kind). */
  in(namespace: string | undefined): Iterable<[string, KubeObject]> {
    if (namespace === undefined) return this.objects;
    return this.kind.namespaced ? (this.byNamespace.get(namespace) ?? []) : [];
  }
}

function keyOf(kind: ResourceKind, namespace: string | undefined, name: string): string {
  return kind.namespaced ? `${namespace ?? ''}/${name}` : name;
}

function stripVersion(obj: KubeObject): KubeObject {
  const copy = clone(obj);
  delete copy.metadata.resourceVersion;
  return copy;
}
