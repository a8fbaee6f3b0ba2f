import { ApiException } from '@kubernetes/client-node';
import { UserFacingError } from '../errors.js';
import { knownSecrets } from '../known-secrets.js';
import { networkCode } from '../net-errors.js';
import { redact } from '../redact.js';

/** The API server's words (an admission webhook's are anyone's, and may echo what they refuse) without secrets. */
const clean = (text: string): string => knownSecrets.scrub(redact(text));

/** What went wrong talking to the Kubernetes API, grouped the way a person acts on it. */
/**
 * `refused`: the cluster's own rule (an admission check), not a permission the worker lacks;
 * `no-such-type`: the cluster does not serve the resource at all (a custom resource without its CRD), as opposed to `not-found` for an object;
 * `throttled`: the API server's flow control kept refusing the call (429) until its deadline.
 */
export type ClusterErrorCode = 'forbidden' | 'refused' | 'not-found' | 'no-such-type' | 'already-exists' | 'conflict' | 'invalid' | 'unauthorized' | 'unreachable' | 'timeout' | 'throttled' | 'server';

/**
 * A failed Kubernetes call. `message` is safe to show in a channel: it names the call and what to do,
 * never credentials.
 */
export class ClusterError extends UserFacingError {
  constructor(
    override readonly code: ClusterErrorCode,
    message: string,
    /** The call that failed, e.g. `delete pod devtroncd/git-sensor-0`. */
    readonly call: string,
    readonly status?: number,
    /** The API server's own message (its Status), when it sent one. */
    readonly detail?: string,
  ) {
    super(code, message);
    this.name = 'ClusterError';
  }
}

interface StatusBody {
  message?: string;
  reason?: string;
  details?: { kind?: string; causes?: { message?: string }[] };
}

function statusBody(body: unknown): StatusBody {
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as StatusBody;
    } catch {
      return { message: body.slice(0, 300) };
    }
  }
  return (body ?? {}) as StatusBody;
}

/**
 * Whether a 403 comes from authorisation (RBAC) rather than from admission. Both are Status Failure with
 * reason Forbidden and the same details; only the message tells them apart. The authoriser's reads
 * `<resource> "<name>" is forbidden: User "<user>" cannot <verb> resource …` (k8s.io/apiserver/pkg/endpoints/
 * handlers/responsewriters/errors.go, forbiddenMessage), while an admission plugin's carries its own reason
 * (`… is forbidden: only dynamically provisioned pvc can be resized …`, `… denied the request: …`).
 */
export function isRbacRefusal(message: string): boolean {
  return /\bforbidden: User "[^"]*" cannot /.test(message);
}

/** Turns whatever a client-node call threw into a ClusterError with a specific, user-safe message. */
export function toClusterError(err: unknown, call: string, server: string): ClusterError {
  if (err instanceof ClusterError) return err;
  if (err instanceof ApiException) {
    const status = err.code;
    const body = statusBody(err.body);
    const detail = clean(body.message ?? '');
    switch (status) {
      case 401:
        return new ClusterError('unauthorized', `The Kubernetes API rejected the worker's credentials (401) on ${call}. Check the kubeconfig or ServiceAccount token.`, call, status);
      case 403:
        if (!isRbacRefusal(detail)) {
          return new ClusterError('refused', `The Kubernetes API refused ${call}: ${detail || 'forbidden'}. This is the cluster's own rule (an admission check), not a permission the worker lacks.`, call, status, detail);
        }
        return new ClusterError('forbidden', `Permission missing for ${call}: ${detail || 'forbidden'}. The worker's RBAC (deploy/rbac.yaml) does not allow it.`, call, status);
      case 404:
        // A missing object is a NotFound Status naming its resource; a resource the server does not serve
        // (no CRD) reaches the not-found handler, whose answer is the bare text "404 page not found".
        if (body.reason !== 'NotFound' || !body.details?.kind) {
          return new ClusterError('no-such-type', `${call}: this cluster does not serve that resource type (404: ${detail.trim() || 'no such resource'}); its CustomResourceDefinition is probably missing.`, call, status);
        }
        return new ClusterError('not-found', `${call}: not found (${detail || 'it is already gone'}).`, call, status);
      case 409:
        // Creating what exists and writing over a newer version are both 409s; callers act differently on each.
        if (body.reason === 'AlreadyExists') return new ClusterError('already-exists', `${call}: it already exists (${detail}).`, call, status);
        return new ClusterError('conflict', `${call}: conflict (${detail || 'the object changed'}).`, call, status);
      case 400:
      case 422:
        return new ClusterError('invalid', `${call}: the API refused the request as invalid (${detail}).`, call, status);
      case 429:
        // Without a Retry-After (the caller sends again when there is one, ApiCaller): said as the cluster's load.
        return new ClusterError('throttled', `The Kubernetes API is refusing requests as too many (429) on ${call}; the cluster is overloaded. Try again in a minute.`, call, status);
      case 415:
        return new ClusterError('invalid', `${call}: the API does not accept this kind of patch for the resource (${detail}).`, call, status);
      default:
        return new ClusterError('server', `${call}: the Kubernetes API answered ${status}${detail ? ` (${detail})` : ''}.`, call, status);
    }
  }
  const code = networkCode(err);
  if (code && ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNRESET', 'EAI_AGAIN', 'ETIMEDOUT'].includes(code)) {
    return new ClusterError('unreachable', `Cannot reach the Kubernetes API at ${server} (${code}) during ${call}.`, call);
  }
  return new ClusterError('server', `${call} failed: ${clean((err as Error)?.message ?? String(err))}`, call);
}
