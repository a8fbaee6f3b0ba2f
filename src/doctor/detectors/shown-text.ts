import { knownSecrets } from '../../known-secrets.js';
import { redact } from '../../redact.js';

/** Secret-looking values and every secret value this process has read, replaced by `[redacted]`. */
export const clean = (text: string): string => knownSecrets.scrub(redact(text));

/**
 * Text of the cluster (a log line, an event, a query) as evidence shows it: cleaned first, then cut
 * to `max` characters. In that order: a cut through a secret leaves a piece that neither a pattern
 * (a URL's credentials without their `@`) nor a known value matches any more.
 */
export function clip(text: string, max: number): string {
  const shown = clean(text);
  return shown.length > max ? `${shown.slice(0, max - 3)}...` : shown;
}
