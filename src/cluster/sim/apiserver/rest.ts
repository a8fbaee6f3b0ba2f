import { randomUUID } from 'node:crypto';
import { admitCreate, validateName, validateUpdate } from './admission.js';
import type { AdmissionCaches } from './admission.js';
import { statusErrors } from './errors.js';
import { readDeleteOptions } from './delete-options.js';
import type { DeleteOptions } from './delete-options.js';
import { deleteCascading, orphanedJobPodsWarning } from './garbage-collector.js';
import { podLog } from './logs.js';
import { acceptedPatchTypes, jsonPatch, mergePatch, PatchError, patchTypes, strategicMergePatch } from './patch.js';
import type { PodRuntime } from './pod-runtime.js';
import { randomSuffix } from './pods.js';
import type { ResourceRequest } from './request-info.js';
import type { ResourceKind } from './resources.js';
import { apiVersionOf, kinds } from './resources.js';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from './selectors.js';
import type { WorkloadSelector } from './selectors.js';
import type { ObjectStore } from './store.js';
import type { PodTermination } from './termination.js';
import { toTable, wantsTable } from './table.js';
import type { KubeObject } from './types.js';
import { clone, isJsonObject } from './types.js';

/** What a verb handler answers; the server writes it out. */
export interface ApiResult {
  status: number;
  body: unknown;
  /** Defaults to application/json; logs are text/plain. */
  contentType?: string;
  headers?: Record<string, string>;
}

/** One decoded request, as the handlers need it. */
export interface ApiCall {
  req: ResourceRequest;
  query: URLSearchParams;
  accept: string | undefined;
  contentType: string;
  body: unknown;
}

const ok = (body: unknown, status = 200): ApiResult => ({ status, body });

/** Create, update and patch take dryRun from the query only (their body is the object); DELETE reads its own options. */
function isDryRun(call: ApiCall): boolean {
  const values = call.query.getAll('dryRun');
  for (const v of values) if (v !== 'All') throw statusErrors.badRequest(`Invalid dry run value: ${v}`);
  return values.length > 0;
}

function namespaceOf(call: ApiCall): string | undefined {
  return call.req.kind.namespaced ? call.req.namespace : undefined;
}

function requireObject(call: ApiCall): KubeObject {
  if (!isJsonObject(call.body)) throw statusErrors.badRequest('the body of the request was in an unknown format - accepted media types include: application/json');
  const obj = clone(call.body) as KubeObject;
  if (!isJsonObject(obj.metadata)) obj.metadata = {};
  return obj;
}

function current(store: ObjectStore, call: ApiCall): KubeObject {
  const found = store.get(call.req.kind, namespaceOf(call), call.req.name);
  if (!found) throw statusErrors.notFound(call.req.kind, call.req.name);
  return found;
}

/** Built-in list items carry no kind/apiVersion on the wire; custom resources keep theirs. */
function asListItem(kind: ResourceKind, obj: KubeObject): KubeObject {
  if (kind.custom) return obj;
  const copy = { ...obj };
  delete copy.apiVersion;
  delete copy.kind;
  return copy;
}

function checkSubresource(call: ApiCall, allowed: readonly string[]): void {
  const sub = call.req.subresource;
  if (sub === '') return;
  const served = sub === 'status' ? call.req.kind.statusSubresource === true : (call.req.kind.subresources ?? []).includes(sub);
  if (!served || !allowed.includes(sub)) throw served ? statusErrors.methodNotAllowed() : statusErrors.pathNotFound();
}

/** The stored objects a list's selectors choose, not copied: read them before yielding, never change them. */
function peekSelected(store: ObjectStore, kind: ResourceKind, namespace: string | undefined, query: URLSearchParams): readonly KubeObject[] {
  const labels = parseLabelSelector(query.get('labelSelector'));
  const fields = parseFieldSelector(query.get('fieldSelector'), kind.kind);
  return store.peek(kind, namespace || undefined, (o) => matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o));
}

export function selectObjects(store: ObjectStore, kind: ResourceKind, namespace: string | undefined, query: URLSearchParams): KubeObject[] {
  return peekSelected(store, kind, namespace, query).map((o) => clone(o));
}

/** The autoscaling/v1 Scale view of a workload. */
function scaleOf(obj: KubeObject): KubeObject {
  const spec = (obj['spec'] as { replicas?: number; selector?: WorkloadSelector } | undefined) ?? {};
  const status = (obj['status'] as { replicas?: number } | undefined) ?? {};
  const selector = Object.entries(spec.selector?.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector },
  };
}

/** Applies a Scale written through `/scale` to its workload. */
function writeScale(store: ObjectStore, call: ApiCall, previous: KubeObject, scale: KubeObject): ApiResult {
  const replicas = (scale['spec'] as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw statusErrors.invalid(call.req.kind, call.req.name, 'spec.replicas', 'FieldValueInvalid', `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`);
  }
  const wanted = scale.metadata.resourceVersion;
  if (wanted && wanted !== previous.metadata.resourceVersion) throw statusErrors.conflict(call.req.kind, call.req.name);
  const next = clone(previous);
  (next['spec'] as { replicas?: number }).replicas = replicas;
  return ok(scaleOf(store.update(call.req.kind, next, { dryRun: isDryRun(call) })));
}

export function get(store: ObjectStore, call: ApiCall, pods: PodRuntime): ApiResult {
  checkSubresource(call, ['status', 'log', 'scale']);
  const obj = current(store, call);
  if (call.req.subresource === 'scale') return ok(scaleOf(obj));
  if (call.req.subresource === 'log') {
    const tail = call.query.get('tailLines');
    const text = podLog(obj, {
      container: call.query.get('container') ?? undefined,
      tailLines: tail === null ? undefined : Number(tail),
      timestamps: call.query.get('timestamps') === 'true',
      previous: call.query.get('previous') === 'true',
    }, pods.logLines(obj, new Date()));
    return { status: 200, body: text, contentType: 'text/plain' };
  }
  if (wantsTable(call.accept)) return ok(toTable(call.req.kind, [obj], obj.metadata.resourceVersion ?? '', call.query.get('includeObject')));
  return ok(obj);
}

export function list(store: ObjectStore, call: ApiCall): ApiResult {
  checkSubresource(call, []);
  const { kind } = call.req;
  // Serialised before anything else runs (server.ts send), so the stored objects need no copies.
  const items = peekSelected(store, kind, namespaceOf(call), call.query);
  const resourceVersion = String(store.resourceVersion);
  if (wantsTable(call.accept)) return ok(toTable(kind, items, resourceVersion, call.query.get('includeObject')));
  return ok({ kind: `${kind.kind}List`, apiVersion: apiVersionOf(kind), metadata: { resourceVersion }, items: items.map((o) => asListItem(kind, o)) });
}

export function create(store: ObjectStore, call: ApiCall): ApiResult {
  checkSubresource(call, []);
  if (call.req.name) throw statusErrors.methodNotAllowed();
  const { kind } = call.req;
  const obj = requireObject(call);
  const meta = obj.metadata;
  if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${randomSuffix()}`;
  validateName(kind, meta.name);
  if (kind.namespaced) {
    if (meta.namespace && meta.namespace !== call.req.namespace) {
      throw statusErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = call.req.namespace;
    if (!store.get(kinds.namespace, undefined, call.req.namespace)) throw statusErrors.notFound(kinds.namespace, call.req.namespace);
  }
  for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'deletionTimestamp', 'selfLink']) delete meta[field];
  const uid = randomUUID();
  admitCreate(kind, obj, uid);
  return ok(store.create(kind, obj, { dryRun: isDryRun(call), uid }), 201);
}

/** Writes `next` over `previous`, honouring the status subresource split, validation and dry run. */
function write(store: ObjectStore, call: ApiCall, previous: KubeObject, next: KubeObject, caches: AdmissionCaches): ApiResult {
  const { kind } = call.req;
  next.metadata.name = previous.metadata.name;
  if (kind.namespaced) next.metadata.namespace = previous.metadata.namespace;
  if (call.req.subresource === 'status') {
    // Through /status only the status changes.
    const onlyStatus = clone(previous);
    onlyStatus['status'] = next['status'];
    onlyStatus.metadata.resourceVersion = next.metadata.resourceVersion;
    next = onlyStatus;
  } else if (kind.statusSubresource) {
    if (previous['status'] === undefined) delete next['status'];
    else next['status'] = previous['status'];
  }
  // Only a DELETE starts or shortens a deletion; a write carries the pending one over as it is.
  for (const field of ['deletionTimestamp', 'deletionGracePeriodSeconds']) {
    if (previous.metadata[field] === undefined) delete next.metadata[field];
    else next.metadata[field] = previous.metadata[field];
  }
  validateUpdate(kind, previous, next, caches);
  return ok(store.update(kind, next, { dryRun: isDryRun(call) }));
}

export function update(store: ObjectStore, call: ApiCall, caches: AdmissionCaches): ApiResult {
  checkSubresource(call, ['status', 'scale']);
  const obj = requireObject(call);
  if (call.req.subresource === 'scale') return writeScale(store, call, current(store, call), obj);
  const { name, namespace } = obj.metadata;
  if (name !== call.req.name) throw statusErrors.badRequest(`the name of the object (${name ?? ''}) does not match the name on the URL (${call.req.name})`);
  if (call.req.kind.namespaced && namespace && namespace !== call.req.namespace) {
    throw statusErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const previous = current(store, call);
  // Custom resources' strategy does not allow unconditional updates; built-in kinds' strategies do.
  if (call.req.kind.custom && !obj.metadata.resourceVersion) throw statusErrors.resourceVersionRequired(call.req.kind, call.req.name);
  return write(store, call, previous, obj, caches);
}

export function patch(store: ObjectStore, call: ApiCall, caches: AdmissionCaches): ApiResult {
  checkSubresource(call, ['status', 'scale']);
  const { kind } = call.req;
  const accepted = acceptedPatchTypes(kind);
  if (!accepted.includes(call.contentType)) throw statusErrors.unsupportedMediaType(accepted);
  const stored = current(store, call);
  const previous = call.req.subresource === 'scale' ? scaleOf(stored) : stored;
  let patched: unknown;
  try {
    if (call.contentType === patchTypes.json) patched = jsonPatch(previous, call.body);
    else if (!isJsonObject(call.body)) throw new PatchError('patch body must be a JSON object', 'malformed');
    else if (call.contentType === patchTypes.merge) patched = mergePatch(previous, call.body);
    else patched = strategicMergePatch(previous, call.body);
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    if (error.kind === 'malformed') throw statusErrors.badRequest(error.message);
    if (call.contentType === patchTypes.json) throw statusErrors.patchNotApplied();
    throw statusErrors.unprocessable(kind, call.req.name, error.message);
  }
  if (!isJsonObject(patched) || !isJsonObject(patched['metadata'])) throw statusErrors.unprocessable(kind, call.req.name, 'metadata: Required value');
  const next = patched as KubeObject;
  // A resourceVersion the patch itself sets is a precondition, exactly as on update.
  const wanted = next.metadata.resourceVersion;
  if (wanted !== undefined && wanted !== '' && wanted !== previous.metadata.resourceVersion) throw statusErrors.conflict(kind, call.req.name);
  next.metadata.resourceVersion = previous.metadata.resourceVersion;
  if (call.req.subresource === 'scale') return writeScale(store, call, stored, next);
  return write(store, call, previous, next, caches);
}

function deleteOne(store: ObjectStore, call: ApiCall, name: string, options: DeleteOptions, pods: PodTermination): { obj: KubeObject; warn: boolean } {
  const { kind } = call.req;
  const existing = store.get(kind, namespaceOf(call), name);
  if (!existing) throw statusErrors.notFound(kind, name);
  const pre = options.preconditions;
  if (pre?.uid && pre.uid !== existing.metadata.uid) throw statusErrors.preconditionFailed(kind, name, 'UID', pre.uid, existing.metadata.uid ?? '');
  if (pre?.resourceVersion && pre.resourceVersion !== existing.metadata.resourceVersion) {
    throw statusErrors.preconditionFailed(kind, name, 'ResourceVersion', pre.resourceVersion, existing.metadata.resourceVersion ?? '');
  }
  if (kind === kinds.pod) return { obj: pods.delete(namespaceOf(call) ?? '', name, options.gracePeriodSeconds, options.dryRun), warn: false };
  if (options.dryRun) return { obj: existing, warn: false };
  const obj = deleteCascading(store, kind, namespaceOf(call), name, options.policy, pods);
  return { obj, warn: kind === kinds.job && !options.explicit };
}

export function remove(store: ObjectStore, call: ApiCall, pods: PodTermination): ApiResult {
  checkSubresource(call, []);
  const { kind } = call.req;
  const options = readDeleteOptions(kind, call.query, call.body);
  const { obj, warn } = deleteOne(store, call, call.req.name, options, pods);
  const headers = warn ? { Warning: orphanedJobPodsWarning } : undefined;
  // Pods answer with the object itself (Terminating, or as it was when it went); other kinds with a Status.
  const body =
    kind === kinds.pod
      ? obj
      : {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name: call.req.name, ...(kind.group ? { group: kind.group } : {}), kind: kind.plural, uid: obj.metadata.uid },
        };
  return { status: 200, body, ...(headers ? { headers } : {}) };
}

export function removeCollection(store: ObjectStore, call: ApiCall, pods: PodTermination): ApiResult {
  checkSubresource(call, []);
  const { kind } = call.req;
  const options = readDeleteOptions(kind, call.query, call.body);
  const deleted = selectObjects(store, kind, namespaceOf(call), call.query).map((o) => deleteOne(store, call, o.metadata.name ?? '', options, pods).obj);
  const list = { kind: `${kind.kind}List`, apiVersion: apiVersionOf(kind), metadata: { resourceVersion: String(store.resourceVersion) }, items: deleted.map((o) => asListItem(kind, o)) };
  return ok(list);
}

