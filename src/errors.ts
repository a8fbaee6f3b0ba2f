import { networkCode } from './net-errors.js';

/**
 * The one kind of error whose text may reach a person on any surface (a Slack message, the terminal,
 * the command line, a job's failure): `safeMessage` says what went wrong and what to do, and never
 * holds a secret; `code` groups it for the program (a surface may act on it, a test may assert it).
 * The project's expected failures extend it; `toUserError` turns anything else into one.
 */
export class UserFacingError extends Error {
  constructor(
    readonly code: string,
    readonly safeMessage: string,
    options?: ErrorOptions,
  ) {
    super(safeMessage, options);
    this.name = 'UserFacingError';
  }
}

/**
 * Input a person gave on the command line that cannot be used: an unknown or incomplete argument, or a
 * file that cannot be read or written. The command line prints its message as one line and exits 2
 * (bad input), whichever command it was.
 */
export class InputError extends UserFacingError {
  constructor(message: string) {
    super('input', message);
    this.name = 'InputError';
  }
}

const fileReasons: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EIO: 'an input/output error',
};

/** Why a file could not be read or written, in words, when `err` is one of Node's file-system errors. */
export function fileReason(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? fileReasons[code] : undefined;
}

/** Node's codes for "nothing answered there": the failure says nothing about the service itself. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE']);

/** Where a socket error was going, from the fields Node sets on it (never a URL, which may hold a password). */
function destination(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { address, port, hostname } = e as { address?: unknown; port?: unknown; hostname?: unknown };
    const host = typeof hostname === 'string' ? hostname : typeof address === 'string' ? address : undefined;
    if (host) return typeof port === 'number' ? `${host}:${port}` : host;
    const inner = (e as { errors?: unknown[] }).errors;
    e = Array.isArray(inner) && inner.length > 0 ? inner[0] : (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The Status body of a refused Kubernetes call: client-node's ApiException, or the Status object itself. */
function kubernetesStatus(err: unknown): { code: number; reason?: string; message?: string } | undefined {
  const e = err as { kind?: unknown; code?: unknown; body?: unknown } | null;
  if (!e || typeof e !== 'object' || typeof e.code !== 'number') return undefined;
  if (e.kind === 'Status') return e as { code: number; reason?: string; message?: string };
  if (e.body === undefined) return undefined;
  let body = e.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return { code: e.code };
    }
  }
  const status = (body ?? {}) as { reason?: unknown; message?: unknown };
  return { code: e.code, ...(typeof status.reason === 'string' ? { reason: status.reason } : {}), ...(typeof status.message === 'string' ? { message: status.message.slice(0, 300) } : {}) };
}

const statusCodes: Record<number, string> = { 400: 'invalid', 401: 'unauthorized', 403: 'forbidden', 404: 'not-found', 409: 'conflict', 422: 'invalid' };

/** What a Redis client error means for a person; its command and data are never part of the answer. */
function redisProblem(err: Error): UserFacingError | undefined {
  // ioredis: the connection went away, or a command waited through all its retries for one.
  if (err.name === 'MaxRetriesPerRequestError' || /^Connection is closed\.?$|^Stream isn't writeable/.test(err.message)) {
    return new UserFacingError('redis-unavailable', 'The queue (Redis) is unreachable.', { cause: err });
  }
  // The server answered but refused: its first word is the reason (WRONGPASS, NOAUTH, OOM, READONLY…).
  if (err.name === 'ReplyError') {
    const reason = /^[A-Z]+/.exec(err.message)?.[0] ?? 'ERR';
    return new UserFacingError('redis-refused', `The queue (Redis) refused the request (${reason}).`, { cause: err });
  }
  return undefined;
}

/** What the default answer to an error nobody expected says; the details are the log's. */
export interface UnexpectedErrorWording {
  /** The safe message of an internal error, e.g. "Internal error in the worker; see its log for request r1." */
  readonly internal?: (name: string) => string;
}

/**
 * Any thrown value as the one error a person may read. The project's own failures pass as they are;
 * Node's file and network errors, refused Kubernetes calls and Redis client errors get a sentence
 * built from their codes alone; everything else is an internal error (code `internal`) whose message
 * names only its class, the original kept as `cause` for the log.
 */
export function toUserError(err: unknown, wording: UnexpectedErrorWording = {}): UserFacingError {
  if (err instanceof UserFacingError) return err;
  const path = (err as { path?: unknown } | null)?.path;
  const reason = fileReason(err);
  if (reason && typeof path === 'string') return new UserFacingError('file', `cannot use ${path}: ${reason}`, { cause: err });
  const status = kubernetesStatus(err);
  if (status) {
    const detail = status.message ? `: ${status.message}` : '';
    return new UserFacingError(statusCodes[status.code] ?? 'server', `The Kubernetes API refused the request (${status.code}${status.reason ? ` ${status.reason}` : ''})${detail}.`, { cause: err });
  }
  if (err instanceof Error) {
    const redis = redisProblem(err);
    if (redis) return redis;
  }
  const network = networkCode(err);
  if (network && unreachableCodes.has(network)) {
    const where = destination(err);
    return new UserFacingError('unreachable', `Cannot reach ${where ?? 'a service it needs'} (${network}).`, { cause: err });
  }
  // Any other failed system call (a port in use, too many open files): its call, code and address alone.
  const { syscall, code } = (err ?? {}) as { syscall?: unknown; code?: unknown };
  if (typeof syscall === 'string' && typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    const where = destination(err);
    return new UserFacingError('system', `${syscall} failed (${code})${where ? ` at ${where}` : ''}.`, { cause: err });
  }
  const name = err instanceof Error ? err.name : typeof err;
  return new UserFacingError('internal', wording.internal?.(name) ?? `Internal error (${name}); the log has the details.`, { cause: err });
}
