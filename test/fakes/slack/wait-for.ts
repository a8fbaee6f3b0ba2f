/**
 * Waiting for the product to have done something in Slack. Event-based: the probe is re-run after
 * every change the fake records, so tests neither poll nor sleep, and a timeout says what did happen.
 */
import type { SlackState, RecordedCall } from './state.js';

/** Options of `waitFor`. */
export interface WaitForOptions {
  /** Default 5000 ms. */
  timeoutMs?: number;
  /** What is awaited, for the timeout message. */
  what?: string;
}

function summarise(call: RecordedCall): string {
  const { channel, text, ts } = call.args;
  const where = [channel, ts].filter((v) => typeof v === 'string').join(' ');
  const said = typeof text === 'string' ? ` "${text.slice(0, 80)}"` : '';
  const outcome = call.ok ? 'ok' : `${call.error ?? 'error'}${call.errors ? ` ${call.errors.join('; ')}` : ''}`;
  return `  ${call.method} ${where}${said} → ${outcome}`;
}

/** Resolves with the first value of `probe` that is not undefined, null or false. */
export function waitForState<T>(
  state: SlackState,
  probe: () => T | undefined | null | false,
  { timeoutMs = 5000, what = 'condition' }: WaitForOptions = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      state.events.off('change', check);
    };
    // Runs inside the fake's request handling, so a throwing probe must not escape into it.
    function check(): void {
      try {
        const value = probe();
        if (value === undefined || value === null || value === false) return;
        done();
        resolve(value);
      } catch (error) {
        done();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const timer = setTimeout(() => {
      done();
      const calls = state.calls.map(summarise).join('\n') || '  (none)';
      reject(new Error(`fake Slack: timed out after ${timeoutMs} ms waiting for ${what}; calls so far:\n${calls}`));
    }, timeoutMs);
    state.events.on('change', check);
    check();
  });
}
