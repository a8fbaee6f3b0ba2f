/**
 * Resolves with the first truthy value of an asynchronous probe (a queue, Redis, the audit trail):
 * for what the fake Slack's event-driven `waitFor` cannot see. Fails with `what` after the timeout.
 */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, { what = 'condition', timeoutMs = 15_000 } = {}): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
