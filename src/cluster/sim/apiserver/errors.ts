import type { ResourceKind } from './resources.js';
import { qualifiedName } from './resources.js';

/** The body of a Kubernetes `Status` failure, exactly as the API server sends it. */
export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; causes?: Array<{ reason: string; message: string; field: string }> };
  code: number;
}

/**
 * A request the simulated API server refuses. It carries the Status body so that the server can send it
 * as is; the constructors below reproduce the API server's own message forms, which clients and tests match on.
 */
export class SimApiError extends Error {
  readonly status: StatusBody;
  constructor(code: number, reason: string, message: string, details?: StatusBody['details']) {
    super(message);
    this.name = 'SimApiError';
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
    if (details) this.status.details = details;
  }
  get code(): number {
    return this.status.code;
  }
  /** Set when the server answers in plain text rather than with the Status (Go's http.NotFound). */
  plainText?: string;
  /** Headers the answer carries besides its content type (the flow-control filter's Retry-After). */
  headers?: Record<string, string>;
}

function details(kind: ResourceKind, name: string | undefined): StatusBody['details'] {
  const d: NonNullable<StatusBody['details']> = {};
  if (name) d.name = name;
  if (kind.group) d.group = kind.group;
  d.kind = kind.plural;
  return d;
}

function subject(kind: ResourceKind, name: string | undefined): string {
  return name ? `${qualifiedName(kind)} "${name}"` : qualifiedName(kind);
}

/**
 * NewInvalid (k8s.io/apimachinery/pkg/api/errors/errors.go) names a GroupKind: `StatefulSet.apps "x" is
 * invalid`. `qualifier` is what stands in the Kind's place: the kind, except where the server puts the
 * resource there (the generic store's resourceVersion check).
 */
function invalidAs(qualifier: string, group: string, name: string | undefined, field: string, causeReason: string, causeMessage: string): SimApiError {
  const d: NonNullable<StatusBody['details']> = { kind: qualifier, causes: [{ reason: causeReason, message: causeMessage, field }] };
  if (name) d.name = name;
  if (group) d.group = group;
  const groupKind = group ? `${qualifier}.${group}` : qualifier;
  return new SimApiError(422, 'Invalid', `${groupKind} "${name ?? ''}" is invalid: ${field ? `${field}: ` : ''}${causeMessage}`, d);
}

function invalid(kind: ResourceKind, name: string | undefined, field: string, causeReason: string, causeMessage: string): SimApiError {
  return invalidAs(kind.kind, kind.group, name, field, causeReason, causeMessage);
}

/** NewConflict names a GroupResource; BeforeDelete puts the Kind in the Resource's place. */
function conflictOn(resource: string, group: string, name: string, why: string): SimApiError {
  const d: NonNullable<StatusBody['details']> = { name };
  if (group) d.group = group;
  d.kind = resource;
  return new SimApiError(409, 'Conflict', `Operation cannot be fulfilled on ${group ? `${resource}.${group}` : resource} "${name}": ${why}`, d);
}

export const statusErrors = {
  notFound: (kind: ResourceKind, name: string) => new SimApiError(404, 'NotFound', `${subject(kind, name)} not found`, details(kind, name)),
  pathNotFound: () => new SimApiError(404, 'NotFound', 'the server could not find the requested resource', {}),
  /**
   * The end of kube-apiserver's delegation chain (k8s.io/apiserver/pkg/util/notfoundhandler/notfoundhandler.go)
   * answers with Go's http.NotFound: the text `404 page not found`, no Status. client-go turns that into
   * "the server could not find the requested resource".
   */
  pageNotFound: () => {
    const error = new SimApiError(404, 'NotFound', 'the server could not find the requested resource', {});
    error.plainText = '404 page not found\n';
    return error;
  },
  /**
   * The flow-control filter's refusal (k8s.io/apiserver/pkg/server/filters/maxinflight.go and
   * priority-and-fairness.go, tooManyRequests): Go's http.Error with a Retry-After header, no Status.
   */
  tooManyRequests: () => {
    const error = new SimApiError(429, 'TooManyRequests', 'Too many requests, please try again later.', {});
    error.plainText = 'Too many requests, please try again later.\n';
    return error;
  },
  alreadyExists: (kind: ResourceKind, name: string) =>
    new SimApiError(409, 'AlreadyExists', `${subject(kind, name)} already exists`, details(kind, name)),
  conflict: (kind: ResourceKind, name: string) =>
    new SimApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${subject(kind, name)}: the object has been modified; please apply your changes to the latest version and try again`,
      details(kind, name),
    ),
  invalid,
  /**
   * A delete whose preconditions do not hold, worded by BeforeDelete (k8s.io/apiserver/pkg/registry/rest/delete.go),
   * which checks them before the store does and names the object by its Kind.
   */
  preconditionFailed: (kind: ResourceKind, name: string, field: 'UID' | 'ResourceVersion', given: string, actual: string) =>
    conflictOn(
      kind.kind,
      kind.group,
      name,
      `the ${field} in the precondition (${given}) does not match the ${field} in record (${actual}). ${
        field === 'UID' ? 'The object might have been deleted and then recreated' : 'The object might have been modified'
      }`,
    ),
  /**
   * A PUT without resourceVersion where the kind's strategy refuses unconditional updates (custom resources):
   * the generic store (k8s.io/apiserver/pkg/registry/generic/registry/store.go) puts the resource in the
   * GroupKind's Kind and prints the uint64 zero with %#v.
   */
  resourceVersionRequired: (kind: ResourceKind, name: string) =>
    invalidAs(kind.plural, kind.group, name, 'metadata.resourceVersion', 'FieldValueInvalid', 'Invalid value: 0x0: must be specified for an update'),
  /**
   * A JSON patch that decodes but does not apply: NewGenericServerResponse(422, ...) in
   * k8s.io/apiserver/pkg/endpoints/handlers/patch.go, a fixed message with no causes (json-patch's own words are dropped).
   */
  patchNotApplied: () => new SimApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {}),
  badRequest: (message: string) => new SimApiError(400, 'BadRequest', message),
  forbidden: (kind: ResourceKind | undefined, resourceLabel: string, name: string | undefined, why: string) => {
    const what = kind ? subject(kind, name) : name ? `${resourceLabel} "${name}"` : resourceLabel;
    return new SimApiError(403, 'Forbidden', `${what} is forbidden: ${why}`, kind ? details(kind, name) : { kind: resourceLabel });
  },
  unauthorized: () => new SimApiError(401, 'Unauthorized', 'Unauthorized'),
  methodNotAllowed: () => new SimApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'),
  unsupportedMediaType: (accepted: readonly string[]) =>
    new SimApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`),
  gone: (message: string) => new SimApiError(410, 'Expired', message),
  /** A 422 whose cause is "field: message", e.g. `spec: Forbidden: ...`; kubectl prints the causes. */
  unprocessable: (kind: ResourceKind, name: string, fieldAndMessage: string) => {
    const colon = fieldAndMessage.indexOf(': ');
    const candidate = colon > 0 ? fieldAndMessage.slice(0, colon) : '';
    const field = /^[A-Za-z][\w.[\]]*$/.test(candidate) ? candidate : '';
    const message = field ? fieldAndMessage.slice(colon + 2) : fieldAndMessage;
    const reason = message.startsWith('Forbidden') ? 'FieldValueForbidden' : 'FieldValueInvalid';
    return invalid(kind, name, field, reason, message);
  },
};
