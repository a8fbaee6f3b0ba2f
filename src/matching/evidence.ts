import { redact } from '../redact.js';
import { lineAt } from './lines.js';
import { patterns } from './patterns.js';

/** Evidence lines are cut to this many characters: enough to recognise, small enough for Slack. */
const EVIDENCE_CHARS = 300;
/** Fields of a JSON log record that carry its message, in the order they are shown. */
const MESSAGE_FIELDS = ['msg', 'message', 'error', 'err'];

/**
 * The text to show for a line: trimmed, without terminal sequences and secrets (redact.ts); for a JSON log
 * record (possibly after a timestamp or pod prefix) its message fields, and on a long line the part around
 * `literal` (what matched), so the user sees the words that matched.
 */
export function evidenceText(text: string, start: number, literal?: string): string {
  const raw = lineAt(text, start);
  // A long line is read whole, once, with the lines above it: the words that matched may be far into it, and a
  // secret that starts above it is hidden on it as on a short one.
  const long = literal !== undefined && raw.length > EVIDENCE_CHARS;
  const source = long ? wholeLine(text, start) : raw;
  // A record's message is read as it is shown, parsed before it is redacted: its escapes are characters then (a
  // colour's `\u001b[1m`, a login's backslash and line break, which redacting the record's text took for a value).
  const message = source.includes('{') ? messageOf(prepare(source).trim()) : undefined;
  const shown = (message === undefined ? redactInContext(text, start, source) : redact(prepare(message))).trim();
  if (literal === undefined || shown.length <= EVIDENCE_CHARS) return cut(shown);
  const at = shown.toLowerCase().indexOf(literal);
  if (at <= EVIDENCE_CHARS / 2) return cut(shown);
  return `…${cut(shown.slice(at - AROUND_BEFORE, at + EVIDENCE_CHARS)).slice(0, EVIDENCE_CHARS - 2)}…`;
}

/** Lines before an evidence line read with it for secrets that start above it. */
const CONTEXT_LINES = 8;
const CONTEXT_CHARS = 16 * 1024;

/**
 * The line at `start`, redacted with the lines before it: a secret may start above the line shown (a login
 * continued by a backslash, a YAML key whose value is on the next line, the body of a key block).
 */
function redactInContext(text: string, start: number, raw: string): string {
  let from = start;
  for (let n = 0; n < CONTEXT_LINES && from > 0; n++) from = text.lastIndexOf('\n', from - 2) + 1;
  from = Math.max(from, start - CONTEXT_CHARS);
  // Most lines above carry nothing onto the next: then the line is redacted alone (redact reads every pattern,
  // and a log's evidence lines are many).
  if (from >= start || !carriesOn(text.slice(from, start))) return redact(prepare(raw));
  const context = prepare(`${text.slice(from, start)}${raw}`);
  // Under a `data:`, the kind that makes it a Secret's may be out of the context, below it (kubectl writes data first).
  const redacted = redact(context, { inSecret: opensData(context) && secretNear(text, start) });
  return redacted.slice(redacted.lastIndexOf('\n') + 1);
}

/** How JSON opens a Kubernetes object's data, lower case (`"data": {`). */
const JSON_DATA_OPENERS = ['"data": {', '"data":{', '"stringdata": {', '"stringdata":{'];
/** A `kind: Secret` line, in YAML or JSON. */
const SECRET_KIND = /(?:^|\n)[ \t-]{0,40}["']?kind["']?[ \t]{0,4}:[ \t]{0,4}["']?Secret\b/;

/** Whether a line of `lines` opens an object's data. */
function opensData(lines: string): boolean {
  return lines.split('\n').some(opensDataLine);
}

/** Whether a line opens a Kubernetes object's data: YAML's `data:` or `stringData:` (not `metadata:`), JSON's `"data": {`. */
function opensDataLine(line: string): boolean {
  let key = line.trim().toLowerCase();
  if (key.startsWith('- ')) key = key.slice(2).trimStart();
  return key === 'data:' || key === 'stringdata:' || JSON_DATA_OPENERS.some((o) => key.endsWith(o));
}

/** Whether a Secret's kind line is near `start`, above or below. */
function secretNear(text: string, start: number): boolean {
  return SECRET_KIND.test(text.slice(Math.max(0, start - CONTEXT_CHARS), start + CONTEXT_CHARS));
}

/** Words of a key that may hold a secret, lower case. */
const SECRET_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'credential'];
/** How a line ends when its value follows on the next one: a YAML key or block marker. */
const VALUE_NEXT = [':', '|', '>', '|-', '>-', '|+', '>+'];

/**
 * Whether lines may carry a secret onto the line after them: one continued by a backslash, a key block's start,
 * an object's data (a Secret's), or a key named for a secret whose value is on the next line (`password:`,
 * `password: |`, `- name: DB_PASSWORD`).
 */
function carriesOn(lines: string): boolean {
  for (const line of lines.split('\n')) {
    const end = line.trimEnd();
    if (end.endsWith('\\')) return true;
    const lower = end.toLowerCase();
    if (lower.includes('private key')) return true;
    // A Secret's data: each key's value is a secret, whatever the key is called.
    if (opensDataLine(lower)) return true;
    if (SECRET_WORDS.some((w) => lower.includes(w)) && (VALUE_NEXT.some((v) => lower.endsWith(v)) || lower.includes('name:'))) return true;
  }
  return false;
}

/** Text without terminal sequences, control characters and characters that show nothing: what is read for secrets is what is shown. */
function prepare(s: string): string {
  return clean(s).replace(patterns.controlChar, '').replace(patterns.escOrReturn, '').replace(patterns.invisible, '');
}

/** Characters shown before the match on a long line. */
const AROUND_BEFORE = 100;

/**
 * The line starting at `start`, whole, without terminal sequences: the scan matched words anywhere in it, and
 * a window placed within a first part of it showed unrelated text for a match beyond (redaction is linear, and
 * the input's size is bounded).
 */
function wholeLine(text: string, start: number): string {
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  return clean(text.slice(start, end));
}

/** A line without terminal sequences: colours, and commands a terminal would act on (titles, clipboard, links). */
function clean(line: string): string {
  return line.replace(patterns.osc, '').replace(patterns.ansi, '');
}

function messageOf(line: string): string | undefined {
  const brace = line.indexOf('{');
  if (brace < 0 || !line.endsWith('}')) return undefined;
  let record: unknown;
  try {
    record = JSON.parse(line.slice(brace));
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const fields = record as Record<string, unknown>;
  const parts = MESSAGE_FIELDS.map((f) => fields[f]).filter((v): v is string => typeof v === 'string' && v.length > 0);
  return parts.length > 0 ? parts.join(' — ') : undefined;
}

function cut(s: string): string {
  // Escape and carriage return too: a stray ESC starts a sequence in a terminal, a \r rewrites the line; and a
  // line break (a record's message may hold one): evidence is one line.
  const flat = s.replace(patterns.controlChar, ' ').replace(patterns.escOrReturn, ' ').replaceAll('\n', ' ').replace(patterns.invisible, '');
  return flat.length <= EVIDENCE_CHARS ? flat : `${flat.slice(0, EVIDENCE_CHARS - 1)}…`;
}
