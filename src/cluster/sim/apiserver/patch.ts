import { clone, deepEqual, isJsonObject } from './types.js';
import type { JsonObject } from './types.js';

/** Media types of PATCH bodies the simulator understands. */
export const patchTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
} as const;

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

/** One RFC 6902 operation. */
interface JsonPatchOp {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`invalid JSON pointer "${pointer}"`, 'malformed');
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = JsonObject | unknown[];

function resolveParent(doc: unknown, tokens: string[], pointer: string): { parent: Container; last: string } {
  let node: unknown = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isJsonObject(node)) node = node[token];
    else node = undefined;
    if (node === undefined) throw new PatchError(`doc is missing path: "${pointer}": missing value`, 'invalid');
  }
  if (!Array.isArray(node) && !isJsonObject(node)) throw new PatchError(`doc is missing path: "${pointer}": missing value`, 'invalid');
  return { parent: node, last: tokens[tokens.length - 1] ?? '' };
}

function arrayIndex(parent: unknown[], token: string, forAdd: boolean, pointer: string): number {
  if (forAdd && token === '-') return parent.length;
  const index = /^(0|[1-9]\d*)$/.test(token) ? Number(token) : NaN;
  const limit = forAdd ? parent.length : parent.length - 1;
  if (Number.isNaN(index) || index > limit) throw new PatchError(`Unable to access invalid index: ${token} of "${pointer}"`, 'invalid');
  return index;
}

function getAt(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isJsonObject(node)) node = node[token];
    else node = undefined;
    if (node === undefined) throw new PatchError(`doc is missing path: "${pointer}": missing value`, 'invalid');
  }
  return node;
}

function remove(doc: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  const { parent, last } = resolveParent(doc, tokens, pointer);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, last, false, pointer), 1)[0];
  if (!(last in parent)) throw new PatchError(`Unable to remove nonexistent key: ${last}: missing value`, 'invalid');
  const old = parent[last];
  delete parent[last];
  return old;
}

function add(doc: unknown, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return clone(value);
  const { parent, last } = resolveParent(doc, tokens, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true, pointer), 0, clone(value));
  else parent[last] = clone(value);
  return doc;
}

/** RFC 6902 JSON patch (add, remove, replace, move, copy, test). The input is not modified. */
export function jsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw new PatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch', 'malformed');
  let doc = clone(target);
  for (const raw of ops) {
    if (!isJsonObject(raw) || typeof raw['op'] !== 'string' || typeof raw['path'] !== 'string') {
      throw new PatchError('json patch operation must have "op" and "path"', 'malformed');
    }
    const op = raw as unknown as JsonPatchOp;
    switch (op.op) {
      case 'add':
        doc = add(doc, op.path, op.value);
        break;
      case 'remove':
        remove(doc, op.path);
        break;
      case 'replace':
        if (parsePointer(op.path).length === 0) doc = clone(op.value);
        else {
          remove(doc, op.path);
          doc = add(doc, op.path, op.value);
        }
        break;
      case 'move': {
        const value = remove(doc, op.from ?? '');
        doc = add(doc, op.path, value);
        break;
      }
      case 'copy':
        doc = add(doc, op.path, getAt(doc, op.from ?? ''));
        break;
      case 'test':
        if (!deepEqual(getAt(doc, op.path), op.value)) {
          throw new PatchError(`testing value ${op.path} failed: test failed`, 'invalid');
        }
        break;
      default:
        throw new PatchError(`Unexpected kind: ${op.op}`, 'malformed');
    }
  }
  return doc;
}
