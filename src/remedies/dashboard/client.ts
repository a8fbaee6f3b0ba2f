/**
 * The metrics dashboard's HTTP API as the worker calls it from inside the cluster (guide section 4):
 * basic auth, JSON in and out, one timeout per call. The password is held in a private field and only
 * ever leaves it in the Authorization header; every message this module builds names the address
 * without credentials and has the password redacted, so an error can be shown or logged as it is.
 */

import { UserFacingError } from '../../errors.js';
import { networkCode } from '../../net-errors.js';

/** What went wrong talking to the dashboard, grouped the way a person acts on it. */
export type DashboardErrorCode = 'unauthorized' | 'unreachable' | 'timeout' | 'http' | 'invalid-response';

/** A failed dashboard call; `message` is safe to show in a channel (no credentials, no password). */
export class DashboardError extends UserFacingError {
  constructor(
    override readonly code: DashboardErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(code, message);
    this.name = 'DashboardError';
  }
}

/** A call's answer: the status (one the caller said it expects) and the parsed JSON body. */
export interface DashboardAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** How a call is made: its org (header `x-grafana-org-id`), JSON body, and which statuses are answers. */
export interface CallOptions {
  readonly orgId?: number;
  readonly body?: unknown;
  /** Statuses the caller handles itself (e.g. 409 "Organization name taken"); default [200]. */
  readonly accept?: readonly number[];
}

/** What a client needs: the base address, the user, and the password with where it came from. */
export interface DashboardClientOptions {
  readonly baseUrl: string;
  readonly user: string;
  readonly password: string;
  /** e.g. `key GRAFANA_PASSWORD of secret devtroncd/devtron-secret`; used in the 401 message. */
  readonly passwordFrom: string;
  readonly timeoutMs?: number;
}

/** An address with any user:password removed and no trailing slash, fit for messages. */
export function withoutCredentials(address: string): string {
  const url = new URL(address);
  url.username = '';
  url.password = '';
  let text = url.toString();
  while (text.endsWith('/')) text = text.slice(0, -1);
  return text;
}

/** The `message` field of the API's error body (section 7: a JSON object with one field, message). */
export function messageOf(body: unknown): string {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') return (body as { message: string }).message.slice(0, 300);
  if (typeof body === 'string') return body.slice(0, 200);
  return '';
}

/** The network code of a failed fetch, else its cause's message (e.g. fetch's "bad port"). */
function failureCode(err: unknown): string {
  const cause = (err as { cause?: unknown })?.cause;
  return networkCode(err) ?? (cause instanceof Error ? cause.message : (err as Error)?.message ?? 'error');
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A client of the dashboard's HTTP API for one plan or run; see the module comment. */
export class DashboardClient {
  /** The base address without credentials, e.g. `http://devtron-grafana.devtroncd/grafana`. */
  readonly base: string;
  readonly user: string;
  readonly #authorization: string;
  readonly #password: string;
  readonly #passwordFrom: string;
  readonly #timeoutMs: number;

  constructor(options: DashboardClientOptions) {
    this.base = withoutCredentials(options.baseUrl);
    this.user = options.user;
    this.#password = options.password;
    this.#passwordFrom = options.passwordFrom;
    this.#authorization = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** Removes the password from a text that may echo it (a proxy's error page, say). */
  redact(text: string): string {
    return this.#password.length >= 3 ? text.split(this.#password).join('***') : text;
  }

  /** One call; throws DashboardError unless the status is one the caller accepts. */
  async call(method: 'GET' | 'POST' | 'PUT', path: string, options: CallOptions = {}): Promise<DashboardAnswer> {
    const what = `${method} ${path}`;
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: this.#authorization };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.orgId !== undefined) headers['x-grafana-org-id'] = String(options.orgId);
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (err) {
      if ((err as Error)?.name === 'TimeoutError') throw new DashboardError('timeout', `${what} on the metrics dashboard at ${this.base} timed out after ${this.#timeoutMs} ms.`);
      throw new DashboardError('unreachable', `Cannot reach the metrics dashboard at ${this.base} (${failureCode(err)}) during ${what}.`);
    }
    const body = await readBody(res);
    if ((options.accept ?? [200]).includes(res.status)) return { status: res.status, body };
    const detail = this.redact(messageOf(body));
    if (res.status === 401) {
      throw new DashboardError(
        'unauthorized',
        `The metrics dashboard at ${this.base} refused user "${this.user}" with the password from ${this.#passwordFrom} (401${detail ? ` ${detail}` : ''}). Check that the secret holds the dashboard's current password.`,
        401,
      );
    }
    throw new DashboardError('http', `${what} on the metrics dashboard answered ${res.status}${detail ? ` (${detail})` : ''}.`, res.status);
  }
}

/** Downloads a dashboard definition from the public catalogue: `{base}/<id>/revisions/<rev>/download`. */
export async function downloadFromCatalogue(catalogueUrl: string, id: number, revision: number, timeoutMs = 15_000): Promise<Record<string, unknown>> {
  const address = `${withoutCredentials(catalogueUrl)}/${id}/revisions/${revision}/download`;
  let res: Response;
  try {
    res = await fetch(address, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const code = (err as Error)?.name === 'TimeoutError' ? 'timed out' : failureCode(err);
    throw new DashboardError('unreachable', `Cannot download dashboard ${id} revision ${revision} from the catalogue at ${address} (${code}).`);
  }
  const body = await readBody(res);
  if (res.status !== 200) throw new DashboardError('http', `The catalogue answered ${res.status} for dashboard ${id} revision ${revision} (${address}).`, res.status);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DashboardError('invalid-response', `The catalogue's dashboard ${id} revision ${revision} is not a dashboard JSON object.`);
  return body as Record<string, unknown>;
}
