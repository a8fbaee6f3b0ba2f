import { createHash } from 'node:crypto';
import { serverVersion } from './discovery.js';
import { acceptedPatchTypes } from './patch.js';
import type { ResourceKind } from './resources.js';
import { resourceKinds } from './resources.js';

/**
 * The OpenAPI v3 documents kube-apiserver serves at `/openapi/v3` (an index of group versions) and
 * `/openapi/v3/api/v1`, `/openapi/v3/apis/{group}/{version}` (k8s.io/kube-openapi/pkg/handler3), generated
 * from the kinds the simulator serves, in the shape of the documents vendored in Kubernetes'
 * api/openapi-spec/v3 (api__v1_openapi.json, apis__apps__v1_openapi.json, ...): every path with its
 * operations, `x-kubernetes-action` and `x-kubernetes-group-version-kind`, and the query parameters each
 * verb takes.
 *
 * What kubectl reads from them: `apply`'s client-side validation first asks whether the server validates
 * fields itself, i.e. whether the kind's PATCH operation takes the `fieldValidation` query parameter
 * (k8s.io/cli-runtime/pkg/resource/query_param_verifier_v3.go); when it does, kubectl sends
 * `fieldValidation=Strict` and validates nothing itself. Without these documents (404) `apply` stopped at
 * "failed to download openapi".
 *
 * The component schemas are open objects (the kind's envelope, the rest preserved): the simulator knows
 * no field schemas. They carry no `x-kubernetes-group-version-kind`, so kubectl's apply finds no schema to
 * compute a strategic merge patch from (patcher.go, buildStrategicMergePatchFromOpenAPIV3 returns nothing)
 * and computes it from its compiled-in Go types, which is what the real schemas are generated from. (With
 * the extension on these open schemas kubectl tries them and warns "error calculating patch from openapi v3
 * spec: unable to find api field". The price: `kubectl explain` finds no schema.)
 */

type Json = Record<string, unknown>;

const groupVersionPath = (group: string, version: string): string => (group === '' ? `api/${version}` : `apis/${group}/${version}`);

/** `io.k8s.api.core.v1.ConfigMap`, `io.k8s.api.apps.v1.Deployment`; custom kinds by their reversed group. */
function schemaName(k: ResourceKind): string {
  if (k.custom) return `${k.group.split('.').reverse().join('.')}.${k.version}.${k.kind}`;
  if (k.group === 'apiextensions.k8s.io') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${k.version}.${k.kind}`;
  const short = k.group === '' ? 'core' : k.group.replace(/\.k8s\.io$/, '');
  return `io.k8s.api.${short}.${k.version}.${k.kind}`;
}

const query = (name: string, description: string): Json => ({ name, in: 'query', description, schema: { type: 'string', uniqueItems: true } });
const boolQuery = (name: string, description: string): Json => ({ name, in: 'query', description, schema: { type: 'boolean', uniqueItems: true } });
const pathParam = (name: string): Json => ({ name, in: 'path', description: `name of the ${name === 'namespace' ? 'Namespace' : 'resource'}`, required: true, schema: { type: 'string', uniqueItems: true } });

const writeParameters = [
  query('dryRun', 'When present, indicates that modifications should not be persisted.'),
  query('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
  query('fieldValidation', 'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields.'),
];
const listParameters = [
  boolQuery('allowWatchBookmarks', 'allowWatchBookmarks requests watch events with type "BOOKMARK".'),
  query('continue', 'The continue option should be set when retrieving more results from the server.'),
  query('fieldSelector', 'A selector to restrict the list of returned objects by their fields.'),
  query('labelSelector', 'A selector to restrict the list of returned objects by their labels.'),
  { name: 'limit', in: 'query', description: 'limit is a maximum number of responses to return for a list call.', schema: { type: 'integer', uniqueItems: true } },
  query('resourceVersion', 'resourceVersion sets a constraint on what resource versions a request may be served from.'),
  boolQuery('watch', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.'),
];

function operation(k: ResourceKind, action: string, verb: string, extra: Json = {}): Json {
  const ref = { $ref: `#/components/schemas/${schemaName(k)}` };
  const json = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
  return {
    tags: [groupVersionPath(k.group, k.version).replace(/\//g, '_')],
    description: `${action} ${verb === 'list' ? `objects of kind ${k.kind}` : `the specified ${k.kind}`}`,
    operationId: `${action}${k.kind}`,
    responses: { '200': { description: 'OK', content: Object.fromEntries((k.custom ? json.slice(0, 2) : json).map((t) => [t, { schema: ref }])) }, '401': { description: 'Unauthorized' } },
    'x-kubernetes-action': verb,
    'x-kubernetes-group-version-kind': { group: k.group, version: k.version, kind: k.kind },
    ...extra,
  };
}

function pathsOf(k: ResourceKind): Json {
  const base = `/${groupVersionPath(k.group, k.version)}${k.namespaced ? '/namespaces/{namespace}' : ''}/${k.plural}`;
  const scope = k.namespaced ? [pathParam('namespace')] : [];
  const body = (types: readonly string[]): Json => ({ requestBody: { content: Object.fromEntries(types.map((t) => [t, { schema: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } }])), required: true } });
  const objectBody: Json = { requestBody: { content: { '*/*': { schema: { $ref: `#/components/schemas/${schemaName(k)}` } } }, required: true } };
  const verb = k.namespaced ? 'Namespaced' : '';
  const paths: Json = {
    [base]: {
      get: operation(k, `list${verb}`, 'list', { parameters: listParameters }),
      post: operation(k, `create${verb}`, 'post', { parameters: writeParameters, ...objectBody }),
      delete: operation(k, `deleteCollection${verb}`, 'deletecollection', { parameters: [...listParameters.slice(1, 5), query('dryRun', 'When present, indicates that modifications should not be persisted.')] }),
      parameters: scope,
    },
    [`${base}/{name}`]: {
      get: operation(k, `read${verb}`, 'get'),
      put: operation(k, `replace${verb}`, 'put', { parameters: writeParameters, ...objectBody }),
      patch: operation(k, `patch${verb}`, 'patch', { parameters: [...writeParameters, boolQuery('force', 'Force is going to "force" Apply requests.')], ...body(acceptedPatchTypes(k)) }),
      delete: operation(k, `delete${verb}`, 'delete', { parameters: [query('dryRun', 'When present, indicates that modifications should not be persisted.'), query('propagationPolicy', 'Whether and how garbage collection will be performed.')] }),
      parameters: [pathParam('name'), ...scope],
    },
  };
  if (k.statusSubresource) {
    paths[`${base}/{name}/status`] = {
      get: operation(k, `read${verb}Status`, 'get'),
      put: operation(k, `replace${verb}Status`, 'put', { parameters: writeParameters, ...objectBody }),
      patch: operation(k, `patch${verb}Status`, 'patch', { parameters: writeParameters, ...body(acceptedPatchTypes(k)) }),
      parameters: [pathParam('name'), ...scope],
    };
  }
  if (k.namespaced) paths[`/${groupVersionPath(k.group, k.version)}/${k.plural}`] = { get: operation(k, `list${k.kind}ForAllNamespaces`, 'list', { parameters: listParameters }) };
  return paths;
}

function schemas(kinds: readonly ResourceKind[]): Json {
  const out: Json = {
    'io.k8s.apimachinery.pkg.apis.meta.v1.Patch': { type: 'object', description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.' },
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', description: 'ObjectMeta is metadata that all persisted resources must have.', 'x-kubernetes-preserve-unknown-fields': true },
  };
  for (const k of kinds) {
    out[schemaName(k)] = {
      type: 'object',
      description: `${k.kind} as the simulated cluster stores it.`,
      properties: {
        apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
        kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
        metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {} },
      },
      'x-kubernetes-preserve-unknown-fields': true,
    };
  }
  return out;
}

function groupVersions(): Map<string, ResourceKind[]> {
  const byPath = new Map<string, ResourceKind[]>();
  for (const k of resourceKinds) {
    const path = groupVersionPath(k.group, k.version);
    byPath.set(path, [...(byPath.get(path) ?? []), k]);
  }
  return byPath;
}

/** The document of one group version (`api/v1`, `apis/apps/v1`), or undefined when it is not served. */
export function openApiDocument(path: string): Json | undefined {
  const kinds = groupVersions().get(path);
  if (!kinds) return undefined;
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: serverVersion.gitVersion },
    paths: Object.assign({}, ...kinds.map(pathsOf)) as Json,
    components: { schemas: schemas(kinds), securitySchemes: { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } } },
  };
}

/** `/openapi/v3`: each group version's address, with the hash clients cache it by (handler3's `?hash=`). */
export function openApiIndex(): Json {
  const paths: Json = {};
  for (const path of groupVersions().keys()) {
    const hash = createHash('sha512').update(JSON.stringify(openApiDocument(path))).digest('hex').toUpperCase();
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
  }
  return { paths };
}
