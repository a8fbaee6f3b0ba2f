import { pino, type Logger } from 'pino';
import { knownSecrets, type KnownSecrets } from './known-secrets.js';
import { redact as redactText } from './redact.js';

/**
 * Paths that may carry a secret in anything we log. Secrets never reach a log: these are censored
 * even if a bug passes them.
 */
const redact = [
  'token', '*.token', 'botToken', '*.botToken', 'appToken', '*.appToken', 'signingSecret', '*.signingSecret',
  'password', '*.password', 'authorization', '*.authorization', 'headers.authorization', 'req.headers.authorization',
  'headers["x-slack-signature"]',
];

/** Every string of a parsed log line, keys included, through `scrub`; `changed` says whether any differed. */
function scrubStrings(value: unknown, scrub: (s: string) => string, seen: { changed: boolean }): unknown {
  if (typeof value === 'string') {
    const out = scrub(value);
    if (out !== value) seen.changed = true;
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => scrubStrings(v, scrub, seen));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrubStrings(k, scrub, seen) as string, scrubStrings(v, scrub, seen)]));
  }
  return value;
}

/**
 * The last guard before a line is written, whatever produced it (our messages and fields, child
 * bindings, serialized errors, a library's text): every string passes the paste redaction and loses
 * every secret value the process knows. Paths alone cannot do this: a secret inside a message string
 * has no path. Works on the parsed line, so an escaped secret is seen as itself and the line stays JSON.
 */
export function guardLogLine(line: string, secrets: KnownSecrets = knownSecrets): string {
  // Nothing shorter than `pwd=x` can hold a secret by any rule; most keys and many values are shorter.
  const scrub = (s: string) => (s.length < 5 ? s : redactText(secrets.scrub(s)));
  // Most lines hold nothing to scrub. A line without a backslash has every string verbatim in it (no
  // escapes), so a rule that finds nothing in the whole line finds nothing in any of its strings:
  // one scan of the line instead of parsing it and scanning each string.
  if (!line.includes('\\') && scrub(line) === line) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return scrub(line);
  }
  const seen = { changed: false };
  const clean = scrubStrings(parsed, scrub, seen);
  return seen.changed ? `${JSON.stringify(clean)}\n` : line;
}

/**
 * The process's logger: JSON lines to stdout (or to `destination`). No level prints a secret: known
 * paths are censored, and every line passes `guardLogLine` on its way out.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream, secrets: KnownSecrets = knownSecrets): Logger {
  return pino(
    {
      level,
      redact: { paths: redact, censor: '[redacted]' },
      base: { app: 'platform-medic' },
      hooks: { streamWrite: (line) => guardLogLine(line, secrets) },
    },
    destination ?? process.stdout,
  );
}

const levelWords: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warning', 50: 'error', 60: 'fatal' };
/** Fields every line carries, which a person at a terminal does not need repeated. */
const routine = new Set(['level', 'time', 'app', 'pid', 'hostname', 'msg']);

/**
 * A destination that writes each log line as a sentence (`warning: Redis unreachable (redis: redis://…, err:
 * ECONNREFUSED)`) to `out`: the terminal adapter's logs land among a person's prompts, where JSON reads as
 * noise. Lines are already guarded (guardLogLine) when they arrive; a line that is not JSON passes as it is.
 */
export function plainLogLines(out: NodeJS.WritableStream): NodeJS.WritableStream & { write(line: string): boolean } {
  return {
    write(line: string): boolean {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return out.write(line);
      }
      const details = Object.entries(record)
        .filter(([key]) => !routine.has(key))
        .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
      const level = levelWords[record['level'] as number] ?? 'log';
      return out.write(`${level}: ${String(record['msg'] ?? '')}${details.length > 0 ? ` (${details.join(', ')})` : ''}\n`);
    },
  } as NodeJS.WritableStream & { write(line: string): boolean };
}
