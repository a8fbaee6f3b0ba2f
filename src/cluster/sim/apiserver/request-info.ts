import { statusErrors } from './errors.js';
import type { ResourceKind } from './resources.js';

/** A request for a resource, decoded from its URL the way the API server's RequestInfoFactory does. */
export interface ResourceRequest {
  kind: ResourceKind;
  /** The Kubernetes verb used for authorisation: get, list, watch, create, update, patch, delete, deletecollection. */
  verb: string;
  namespace: string;
  name: string;
  subresource: string;
  /**
   * For a list or watch whose fieldSelector requires `metadata.name=X`: X, which authorisation sees as the
   * request's name (so RBAC resourceNames apply), while the verb stays list or watch.
   */
  selectedName?: string;
}

/** Path segments that are subresources of a namespace rather than resources inside it. */
const namespaceSubresources = new Set(['status', 'finalize']);

function isWatch(query: URLSearchParams): boolean {
  const w = query.get('watch');
  return w === 'true' || w === '1';
}

function verbOf(method: string, name: string, query: URLSearchParams): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (isWatch(query)) return 'watch';
      return name ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return name ? 'delete' : 'deletecollection';
    default:
      throw statusErrors.methodNotAllowed();
  }
}

/**
 * The name a list's field selector requires exactly, as NewRequestInfo reads it
 * (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go: RequiresExactMatch("metadata.name"), kept only when
 * it is a valid path segment). `!=` requires nothing.
 */
function nameRequiredBy(query: URLSearchParams): string {
  for (const part of (query.get('fieldSelector') ?? '').split(',')) {
    const m = /^\s*metadata\.name\s*(?:==|=)(.*)$/.exec(part);
    const name = m?.[1]?.trim() ?? '';
    if (name !== '' && name !== '.' && name !== '..' && !/[/%]/.test(name)) return name;
  }
  return '';
}

/**
 * Decodes `/api/v1/namespaces/{ns}/pods/{name}/log` and `/apis/{group}/{version}/...`. Returns undefined for
 * paths that are not resource paths (discovery and the like); throws 404 for resources the server does not serve.
 */
export function parseResourcePath(
  method: string,
  pathname: string,
  query: URLSearchParams,
  findKind: (group: string, version: string, plural: string) => ResourceKind | undefined,
): ResourceRequest | undefined {
  const parts = pathname.split('/').filter((p) => p !== '').map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1] ?? '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1] ?? '';
    version = parts[2] ?? '';
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 2) {
    namespace = rest[1] ?? '';
    if (rest.length > 2 && !namespaceSubresources.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  const [plural = '', name = '', subresource = '', ...extra] = rest;
  const kind = findKind(group, version, plural);
  // Under /apis, what no built-in group serves is the apiextensions handler's, which hands an unknown or
  // unestablished resource to the not-found handler (k8s.io/apiserver/pkg/util/notfoundhandler/notfoundhandler.go).
  if (!kind && group !== '') throw statusErrors.pageNotFound();
  if (!kind || extra.length > 0) throw statusErrors.pathNotFound();
  if (kind.plural === 'namespaces') {
    // `/api/v1/namespaces/{name}` names the namespace itself; like the API server, it counts as in that namespace for RBAC.
    return { kind, verb: verbOf(method, name, query), namespace: name, name, subresource };
  }
  if (!kind.namespaced && namespace) throw statusErrors.pathNotFound();
  const verb = verbOf(method, name, query);
  const selectedName = verb === 'list' || verb === 'watch' ? nameRequiredBy(query) : '';
  return { kind, verb, namespace, name, subresource, ...(selectedName ? { selectedName } : {}) };
}
