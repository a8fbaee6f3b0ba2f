import { lineAt } from './lines.js';
import { patterns } from './patterns.js';

/** Evidence lines are cut to this many characters: enough to recognise, small enough for Slack. */
const EVIDENCE_CHARS = 300;
/** Fields of a JSON log record that carry its message, in the order they are shown. */
const MESSAGE_FIELDS = ['msg', 'message', 'error', 'err'];

/**
 * The text to show for a line: trimmed, without colour codes, and for a JSON log record (possibly
 * after a timestamp or pod prefix) its message fields, so the user sees the words that matched.
 */
export function evidenceText(text: string, start: number): string {
  const line = lineAt(text, start).replace(patterns.ansi, '').trim();
  return cut(messageOf(line) ?? line);
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
  const flat = s.replace(patterns.controlChar, ' ');
  return flat.length <= EVIDENCE_CHARS ? flat : `${flat.slice(0, EVIDENCE_CHARS - 1)}…`;
}
