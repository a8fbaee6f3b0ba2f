import { ClusterError } from '../../cluster/errors.js';
import type { StepContext } from './context.js';

/** Shared bits of the step kinds. */

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A parameter of the fix, already checked against the entry's pattern; undefined when not given. */
export function paramOf(ctx: StepContext, name: string): string | undefined {
  return ctx.params?.[name];
}

/** `devtroncd/name`, or just `name` for cluster-scoped objects. */
export const where = (namespace: string, name: string): string => (namespace ? `${namespace}/${name}` : name);

/** Markdown code span, as the card shows names and values. */
export const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

/** Failures of a read that the next read may not have: the API server's bad moment (or its load), not an answer. */
const passing = new Set(['server', 'timeout', 'throttled', 'unreachable']);

/**
 * Polls `check` every `ctx.pollMs` until it returns a value or `seconds` pass; undefined on timeout.
 * Verification of what a step did, never a wait of the guide (those are delayed jobs). A read that fails
 * with a 5xx, a timeout or a lost connection is read again: the step has already changed the cluster, and
 * one bad moment of the API server failed a remedy whose change had worked. The last such failure is
 * thrown when the time is up.
 */
export async function pollFor<T>(ctx: StepContext, seconds: number, check: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    let found: T | undefined;
    try {
      found = await check();
    } catch (err) {
      if (!(err instanceof ClusterError && passing.has(err.code)) || Date.now() >= deadline) throw err;
    }
    if (found !== undefined) return found;
    if (Date.now() >= deadline) return undefined;
    await sleep(ctx.pollMs);
  }
}

export const isConflict = (err: unknown): boolean => err instanceof ClusterError && err.code === 'conflict';

/**
 * A write that carries the object's resourceVersion, retried once on 409 Conflict: the object is read
 * again, and the write is repeated only if what the plan pinned still holds (`reread` returns the
 * fresh resourceVersion, or undefined when the pin no longer holds). Never used for steps that are
 * not idempotent (creating a backup, deleting).
 */
export async function writeWithOneRetry<T>(
  resourceVersion: string,
  write: (resourceVersion: string) => Promise<T>,
  reread: () => Promise<string | undefined>,
): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await write(resourceVersion) };
  } catch (err) {
    if (!isConflict(err)) throw err;
    const fresh = await reread();
    if (fresh === undefined) return { ok: false };
    return { ok: true, value: await write(fresh) };
  }
}
