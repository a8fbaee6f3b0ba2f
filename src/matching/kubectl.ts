import type { MarkerHit } from './table-markers.js';
import { lineAt } from './lines.js';
import { patterns } from './patterns.js';

/**
 * Reading `kubectl get jobs` and `kubectl get pods` tables. The scanner flags only the lines that hold
 * a marker (a header word or a status), so a huge log costs nothing here unless it is a table.
 */

/** A fact read from a table row: a job at 0/1 completions, a pod failing to pull or crash-looping. */
export interface TableFact {
  readonly kind: 'job-incomplete' | 'pod-image-pull' | 'pod-crash-loop';
  /** The object's name as the row shows it. */
  readonly name: string;
  readonly line: number;
  readonly start: number;
}

interface Header {
  readonly kind: 'jobs' | 'pods';
  readonly nameAt: number;
  /** Column of COMPLETIONS (jobs) or STATUS (pods). */
  readonly valueAt: number;
  readonly width: number;
}

function readHeader(tokens: readonly string[]): Header | undefined {
  const upper = tokens.map((t) => t.toUpperCase());
  const nameAt = upper.indexOf('NAME');
  if (nameAt < 0) return undefined;
  const completions = upper.indexOf('COMPLETIONS');
  if (completions > nameAt) return { kind: 'jobs', nameAt, valueAt: completions, width: tokens.length };
  const status = upper.indexOf('STATUS');
  if (status > nameAt && upper.includes('READY')) return { kind: 'pods', nameAt, valueAt: status, width: tokens.length };
  return undefined;
}

/** Without a header, rows are recognised by shape: `name 0/1 5m 5m` (job), `name 0/1 Status 3 5m` (pod). */
function headerlessKind(tokens: readonly string[]): Header | undefined {
  for (const nameAt of [0, 1]) {
    const ready = tokens[nameAt + 1];
    if (ready === undefined || !patterns.readyCount.test(ready)) continue;
    const rest = tokens.length - nameAt - 2;
    if (rest === 2) return { kind: 'jobs', nameAt, valueAt: nameAt + 1, width: tokens.length };
    if (rest >= 3 && patterns.count.test(tokens[nameAt + 3] ?? '')) return { kind: 'pods', nameAt, valueAt: nameAt + 2, width: tokens.length };
  }
  return undefined;
}

/** The facts the flagged table rows state, in line order. */
export function readTables(text: string, markers: readonly MarkerHit[]): TableFact[] {
  const facts: TableFact[] = [];
  let header: Header | undefined;
  let headerLine = 0;
  let lastLine = -1;
  for (const m of markers) {
    if (m.line === lastLine) continue;
    lastLine = m.line;
    const tokens = lineAt(text, m.start).trim().split(patterns.whitespace);
    const h = m.marker === 'job-header' || m.marker === 'pod-header' ? readHeader(tokens) : undefined;
    if (h) {
      header = h;
      headerLine = m.line;
      continue;
    }
    // A header rules the rows under it; a row far below it (another paste section) is read by shape.
    const rule = header && m.line - headerLine < 2000 && tokens.length >= header.width - 1 ? header : headerlessKind(tokens);
    if (!rule) continue;
    const name = tokens[rule.nameAt] ?? '';
    const value = (tokens[rule.valueAt] ?? '').toLowerCase();
    if (rule.kind === 'jobs' && value === '0/1') facts.push({ kind: 'job-incomplete', name, line: m.line, start: m.start });
    if (rule.kind === 'pods' && value.endsWith('imagepullbackoff')) facts.push({ kind: 'pod-image-pull', name, line: m.line, start: m.start });
    if (rule.kind === 'pods' && value.endsWith('errimagepull')) facts.push({ kind: 'pod-image-pull', name, line: m.line, start: m.start });
    if (rule.kind === 'pods' && value.endsWith('crashloopbackoff')) facts.push({ kind: 'pod-crash-loop', name, line: m.line, start: m.start });
  }
  return facts;
}
