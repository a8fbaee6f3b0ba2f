import jsonPatchLibrary from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { clone, isJsonObject } from './types.js';
import type { JsonObject } from './types.js';

const { applyOperation, JsonPatchError } = jsonPatchLibrary;
type JsonPatchError = InstanceType<typeof JsonPatchError>;

/** Media types of PATCH bodies the simulator understands. */
export const patchTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
} as const;

/**
 * The patch types a resource accepts: custom resources have no strategic merge patch. Server-side apply
 * (application/apply-patch+yaml) is not simulated, so it is refused with the 415 kube-apiserver answers for
 * a patch type it does not serve (handlers/patch.go, negotiation.NewUnsupportedMediaTypeError).
 */
export function acceptedPatchTypes(kind: { custom?: boolean }): readonly string[] {
  return kind.custom ? [patchTypes.json, patchTypes.merge] : [patchTypes.json, patchTypes.merge, patchTypes.strategic];
}

/** Why a patch document could not be applied; the server turns it into a 422 or 400 Status. */
export class PatchError extends Error {
  constructor(
    message: string,
    readonly kind: 'invalid' | 'malformed',
  ) {
    super(message);
    this.name = 'PatchError';
  }
}

/** RFC 7386 JSON merge patch: objects merge recursively, null deletes, everything else (lists too) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return clone(patch);
  const out: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/**
 * Lists that strategic merge patch merges by a key instead of replacing, by field name.
 * These are the patchMergeKeys of the core types for the fields a remedy touches; other lists replace.
 */
const mergeKeys: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  ports: 'containerPort',
  imagePullSecrets: 'name',
  ownerReferences: 'uid',
  conditions: 'type',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
};

/** Strategic merge patch as the API server applies it to built-in kinds (with its `$patch` directives). */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return clone(patch);
  if (patch['$patch'] === 'replace') {
    const rest = { ...patch };
    delete rest['$patch'];
    return rest;
  }
  if (patch['$patch'] === 'delete') return undefined;
  const out: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$setElementOrder/') || key === '$retainKeys' || key === '$patch') continue;
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      const current = out[field];
      if (Array.isArray(current) && Array.isArray(value)) out[field] = current.filter((v) => !value.includes(v));
      continue;
    }
    if (value === null) {
      delete out[key];
      continue;
    }
    const mergeKey = mergeKeys[key];
    if (Array.isArray(value) && mergeKey !== undefined) {
      out[key] = mergeList(Array.isArray(out[key]) ? (out[key] as unknown[]) : [], value, mergeKey);
      continue;
    }
    const merged = strategicMergePatch(out[key], value);
    if (merged === undefined) delete out[key];
    else out[key] = merged;
  }
  return out;
}

function mergeList(current: unknown[], patch: unknown[], mergeKey: string): unknown[] {
  if (patch.some((item) => isJsonObject(item) && item['$patch'] === 'replace')) {
    return patch.filter((item) => !(isJsonObject(item) && item['$patch'] === 'replace'));
  }
  const out = [...current];
  for (const item of patch) {
    if (!isJsonObject(item) || item[mergeKey] === undefined) {
      out.push(clone(item));
      continue;
    }
    const index = out.findIndex((existing) => isJsonObject(existing) && existing[mergeKey] === item[mergeKey]);
    if (item['$patch'] === 'delete') {
      if (index >= 0) out.splice(index, 1);
      continue;
    }
    if (index >= 0) out[index] = strategicMergePatch(out[index], item);
    else out.push(strategicMergePatch({}, item));
  }
  return out;
}

/** RFC 6902 operations, by name. */
const operations = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** The last reference token of a JSON pointer, unescaped: what kube-apiserver's messages name. */
function lastToken(pointer: string): string {
  return (pointer.split('/').pop() ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
}

/** kube-apiserver's words (from evanphx/json-patch) for why an operation did not apply, by fast-json-patch's error name. */
function failure(error: JsonPatchError, op: Operation): PatchError {
  const from = 'from' in op ? op.from : '';
  switch (error.name) {
    case 'TEST_OPERATION_FAILED':
      return new PatchError(`testing value ${op.path} failed: test failed`, 'invalid');
    case 'OPERATION_VALUE_OUT_OF_BOUNDS':
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
      return new PatchError(`Unable to access invalid index: ${lastToken(op.path)} of "${op.path}"`, 'invalid');
    case 'OPERATION_PATH_UNRESOLVABLE':
      if (op.op === 'remove' || op.op === 'replace') return new PatchError(`Unable to remove nonexistent key: ${lastToken(op.path)}: missing value`, 'invalid');
      return new PatchError(`doc is missing path: "${op.path}": missing value`, 'invalid');
    case 'OPERATION_FROM_UNRESOLVABLE':
      return new PatchError(`doc is missing path: "${from}": missing value`, 'invalid');
    case 'OPERATION_VALUE_REQUIRED':
    case 'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED':
      return new PatchError(`${op.op} operation on "${op.path}" has no value: missing value`, 'invalid');
    default:
      return new PatchError(`doc is missing path: "${op.path}": missing value`, 'invalid');
  }
}

/**
 * RFC 6902 JSON patch (add, remove, replace, move, copy, test), applied by fast-json-patch with its
 * validation on, so that a missing path or an index past the end fails as it does in kube-apiserver rather
 * than being created. The input is not modified; errors carry kube-apiserver's texts.
 */
export function jsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw new PatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch', 'malformed');
  for (const raw of ops) {
    if (!isJsonObject(raw) || typeof raw['op'] !== 'string' || typeof raw['path'] !== 'string') {
      throw new PatchError('json patch operation must have "op" and "path"', 'malformed');
    }
    if (!operations.has(raw['op'])) throw new PatchError(`Unexpected kind: ${raw['op']}`, 'malformed');
    for (const pointer of [raw['path'], ...(raw['op'] === 'move' || raw['op'] === 'copy' ? [raw['from']] : [])]) {
      if (typeof pointer !== 'string' || (pointer !== '' && !pointer.startsWith('/'))) throw new PatchError(`invalid JSON pointer "${String(pointer)}"`, 'malformed');
    }
  }
  // The library changes the document in place and inserts the operations' values by reference: both are copies.
  const patch = clone(ops) as Operation[];
  let doc = clone(target);
  for (const op of patch) {
    try {
      doc = applyOperation(doc, op, true, true).newDocument;
    } catch (error) {
      if (error instanceof JsonPatchError) throw failure(error, op);
      // fast-json-patch refuses `__proto__` paths with a TypeError; in a JSON document they name nothing.
      if (error instanceof TypeError) throw new PatchError(`doc is missing path: "${op.path}": missing value`, 'invalid');
      throw error;
    }
  }
  return doc;
}
