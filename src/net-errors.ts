/**
 * The network error code (ECONNREFUSED, ENOTFOUND, ETIMEDOUT …) somewhere in an error's cause chain:
 * fetch and client-node wrap the socket's error one or two levels down, and an AggregateError holds
 * one error per address tried.
 */
export function networkCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const inner = (e as { errors?: unknown[] }).errors;
    e = Array.isArray(inner) && inner.length > 0 ? inner[0] : (e as { cause?: unknown }).cause;
  }
  return undefined;
}
