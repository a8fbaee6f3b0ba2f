import { statusErrors } from './errors.js';
import type { PropagationPolicy } from './garbage-collector.js';
import { defaultPropagation } from './garbage-collector.js';
import type { ResourceKind } from './resources.js';
import { isJsonObject } from './types.js';

/** The DeleteOptions of one DELETE request, as the API server settles them. */
export interface DeleteOptions {
  policy: PropagationPolicy;
  /** Whether the request named a policy (a Job deleted without one gets the orphaning warning). */
  explicit: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
  /** Undefined when the request gave none: the object's own default applies (a pod's terminationGracePeriodSeconds). */
  gracePeriodSeconds?: number;
}

const queryParameters = ['dryRun', 'gracePeriodSeconds', 'propagationPolicy', 'orphanDependents'] as const;

/** The DeleteOptions parameters of a DELETE's query that the server leaves unread, because a body carries the options. */
export function ignoredDeleteQuery(query: URLSearchParams, body: unknown): string[] {
  return body === undefined ? [] : queryParameters.filter((p) => query.has(p));
}

interface RawOptions {
  propagationPolicy?: unknown;
  orphanDependents?: unknown;
  preconditions?: unknown;
  dryRun?: unknown;
  gracePeriodSeconds?: unknown;
}

function fromQuery(query: URLSearchParams): RawOptions {
  const raw: RawOptions = {};
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) raw.dryRun = dryRun;
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null) {
    if (!/^-?\d+$/.test(grace)) throw statusErrors.badRequest(`strconv.ParseInt: parsing "${grace}": invalid syntax`);
    raw.gracePeriodSeconds = Number(grace);
  }
  const policy = query.get('propagationPolicy');
  if (policy !== null) raw.propagationPolicy = policy;
  const orphan = query.get('orphanDependents');
  if (orphan !== null) raw.orphanDependents = orphan === 'true';
  return raw;
}

/**
 * DeleteOptions come from the body when the request has one, and only otherwise from the query: the two
 * are never merged (k8s.io/apiserver/pkg/endpoints/handlers/delete.go, DeleteResource and DeleteCollection:
 * `if len(body) > 0 { decode the body } else { DecodeParameters(req.URL.Query()) }`). So a
 * `?dryRun=All` DELETE that carries a preconditions body is a real deletion on a real cluster.
 */
export function readDeleteOptions(kind: ResourceKind, query: URLSearchParams, body: unknown): DeleteOptions {
  const hasBody = body !== undefined;
  const raw: RawOptions = hasBody ? (isJsonObject(body) ? (body as RawOptions) : {}) : fromQuery(query);
  const dryRunValues = Array.isArray(raw.dryRun) ? raw.dryRun.map(String) : [];
  for (const v of dryRunValues) if (v !== 'All') throw statusErrors.badRequest(`Invalid dry run value: ${v}`);
  const rawPolicy = typeof raw.propagationPolicy === 'string' ? raw.propagationPolicy : raw.orphanDependents === true ? 'Orphan' : undefined;
  if (rawPolicy !== undefined && rawPolicy !== 'Background' && rawPolicy !== 'Foreground' && rawPolicy !== 'Orphan') {
    throw statusErrors.badRequest(`DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${rawPolicy}": supported values: "Foreground", "Background", "Orphan"`);
  }
  const preconditions = isJsonObject(raw.preconditions) ? (raw.preconditions as DeleteOptions['preconditions']) : undefined;
  return {
    policy: (rawPolicy as PropagationPolicy | undefined) ?? defaultPropagation(kind),
    explicit: rawPolicy !== undefined,
    ...(preconditions ? { preconditions } : {}),
    dryRun: dryRunValues.length > 0,
    ...(typeof raw.gracePeriodSeconds === 'number' ? { gracePeriodSeconds: raw.gracePeriodSeconds } : {}),
  };
}
