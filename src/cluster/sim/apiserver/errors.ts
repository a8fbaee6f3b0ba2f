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

function invalid(kind: ResourceKind, name: string | undefined, field: string, causeReason: string, causeMessage: string): SimApiError {
  const d: NonNullable<StatusBody['details']> = { kind: kind.kind, causes: [{ reason: causeReason, message: causeMessage, field }] };
  if (name) d.name = name;
  if (kind.group) d.group = kind.group;
  return new SimApiError(422, 'Invalid', `${kind.kind} "${name ?? ''}" is invalid: ${field ? `${field}: ` : ''}${causeMessage}`, d);
}

export const statusErrors = {
  notFound: (kind: ResourceKind, name: string) => new SimApiError(404, 'NotFound', `${subject(kind, name)} not found`, details(kind, name)),
  pathNotFound: () => new SimApiError(404, 'NotFound', 'the server could not find the requested resource', {}),
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
