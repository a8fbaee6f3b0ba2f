import { ApiException } from '@kubernetes/client-node';
import { ClusterError, toClusterError } from '../errors.js';

/** Tries of one call the API server's flow control refused (429), as client-go's default (rest/request.go). */
const MAX_TRIES = 11;

/**
 * Every Kubernetes call goes through here: it gets a deadline, and whatever it throws becomes a
 * ClusterError naming the call (`delete job devtroncd/x`), so the thread says which call failed and why.
 * A call the API server's flow control refused (429 with Retry-After: it reached no handler, so nothing was
 * done) is sent again after the wait it asks for, as client-go does, while the deadline allows.
 */
export class ApiCaller {
  constructor(
    private readonly server: string,
    private readonly timeoutMs: number,
  ) {}

  async call<T>(description: string, fn: () => Promise<T>): Promise<T> {
    const started = Date.now();
    const deadline = started + this.timeoutMs;
    for (let tries = 1; ; tries++) {
      try {
        return await this.once(description, fn, deadline);
      } catch (err) {
        const wait = throttledFor(err);
        if (wait === undefined) throw toClusterError(err, description, this.server);
        if (tries >= MAX_TRIES || Date.now() + wait >= deadline) {
          const seconds = Math.max(1, Math.round((Date.now() - started) / 1000));
          throw new ClusterError(
            'throttled',
            `The Kubernetes API is refusing requests as too many (429) on ${description} after ${tries} ${tries === 1 ? 'try' : 'tries'} over ${seconds} s; the cluster is overloaded. Try again in a minute.`,
            description,
            429,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** One try, failing with a timeout at the call's deadline. */
  private async once<T>(description: string, fn: () => Promise<T>, deadline: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ClusterError('timeout', `${description} timed out after ${this.timeoutMs} ms (${this.server}).`, description)),
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      return await Promise.race([fn(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Like `call`, but a 404 is an answer (undefined), not a failure. */
  async find<T>(description: string, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await this.call(description, fn);
    } catch (err) {
      if (err instanceof ClusterError && err.code === 'not-found') return undefined;
      throw err;
    }
  }
}

/**
 * How long a 429 asks the client to wait (its Retry-After, in whole seconds as kube-apiserver sends it), or
 * undefined for any other failure. Without a Retry-After client-go does not send again, nor does the gateway.
 */
function throttledFor(err: unknown): number | undefined {
  if (!(err instanceof ApiException) || err.code !== 429) return undefined;
  const header = (err.headers as Record<string, string | undefined>)['retry-after'];
  const seconds = header === undefined ? NaN : Number(header.trim());
  return Number.isInteger(seconds) && seconds >= 0 ? Math.max(seconds, 1) * 1000 : undefined;
}

/** `dryRun: 'All'` when asked: the API server validates and admits the write but stores nothing. */
export const dryRunOf = (dryRun: boolean | undefined): { dryRun?: string } => (dryRun ? { dryRun: 'All' } : {});

/** Timestamps arrive as Date from typed clients and as strings from custom objects. */
export function toIso(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  return typeof v === 'string' ? v : '';
}
