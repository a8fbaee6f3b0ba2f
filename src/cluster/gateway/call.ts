import { ClusterError, toClusterError } from '../errors.js';

/**
 * Every Kubernetes call goes through here: it gets a deadline, and whatever it throws becomes a
 * ClusterError naming the call (`delete job devtroncd/x`), so the thread says which call failed and why.
 */
export class ApiCaller {
  constructor(
    private readonly server: string,
    private readonly timeoutMs: number,
  ) {}

  async call<T>(description: string, fn: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ClusterError('timeout', `${description} timed out after ${this.timeoutMs} ms (${this.server}).`, description)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([fn(), timeout]);
    } catch (err) {
      throw toClusterError(err, description, this.server);
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

/** `dryRun: 'All'` when asked: the API server validates and admits the write but stores nothing. */
export const dryRunOf = (dryRun: boolean | undefined): { dryRun?: string } => (dryRun ? { dryRun: 'All' } : {});

/** Timestamps arrive as Date from typed clients and as strings from custom objects. */
export function toIso(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  return typeof v === 'string' ? v : '';
}
