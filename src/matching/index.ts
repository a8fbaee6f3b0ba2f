import { catalogue } from '../catalogue/index.js';
import type { CatalogueEntry } from '../catalogue/model.js';
import { looksBinary } from './binary.js';
import { lineStart } from './lines.js';
import { evidenceText } from './evidence.js';
import { EVIDENCE_CAP } from './hits.js';
import { readTables } from './kubectl.js';
import { compile } from './literals.js';
import { scan } from './scan.js';
import { score, THRESHOLD, type Scored } from './score.js';
import type { Candidate, Evidence, MatchResult } from './types.js';
import { decide, MAX_MATCHES } from './verdict.js';
import type { Applied } from './applied.js';
import { answerTable, probability, uncalibrated, type Calibration, type CalibrationPoint } from './calibration.js';
import { calibrationTable } from './calibration-table.js';

export type { AskReason, Candidate, Evidence, MatchResult, TriedNote } from './types.js';
export { THRESHOLD } from './score.js';

/**
 * The catalogue entries a pasted text is about, best first, with the lines that show it: one clearly
 * (`match`), or a few for the person to choose from (`ask`); or an abstention with the entries worth
 * explaining. Pure and total: any string, however large or odd,
 * gets an answer and never an exception.
 */
export function match(text: string, entries: readonly CatalogueEntry[] = catalogue, options: { readonly calibration?: Calibration } = {}): MatchResult {
  if (looksBinary(text)) return { verdict: 'no-match', matches: [], nearest: [], note: 'binary' };
  const compiled = compile(entries);
  const { hits, lines } = scan(text, compiled);
  const facts = readTables(text, hits.markers);
  const scored = score(text, lines, compiled, hits, facts);
  const ranked = scored
    .filter((s) => s.confidence >= THRESHOLD)
    .sort((a, b) => b.confidence - a.confidence || b.evidence.length - a.evidence.length || wordsShared(b) - wordsShared(a) || firstLine(a) - firstLine(b) || a.entry - b.entry);
  const decision = decide(text, scored, ranked, entries);
  // The table was fitted for the catalogue's entries; another set of entries is shown its raw scores.
  const calibration = options.calibration ?? (entries === catalogue ? calibrationTable : uncalibrated);
  if (decision.verdict === 'no-match') {
    const near = nearest(scored, entries);
    if (!decision.tried) return { verdict: 'no-match', matches: [], nearest: near };
    const triedEntry = entries[decision.tried.entry]!;
    const tried = candidate(decision.tried, triedEntry, text, calibration[answerTable(triedEntry, decision.platformNamed === true)], decision.applied);
    return { verdict: 'no-match', matches: [], nearest: [tried.id, ...near.filter((id) => id !== tried.id)].slice(0, MAX_MATCHES), note: decision.declined ? 'declined' : 'applied', tried };
  }
  // One answer reads one table, the first entry's (for a platform remedy, the one for pastes that name the
  // platform or the one for those that do not): it is that entry's probability, and the alternatives
  // ranked below it are never shown as more likely than it.
  const tableName = answerTable(entries[decision.order[0]!.entry]!, decision.platformNamed === true);
  const table = calibration[tableName];
  const matches = decision.order.map((s) => candidate(s, entries[s.entry]!, text, table));
  if (decision.verdict === 'ask') return { verdict: 'ask', matches, why: decision.why, table: tableName };
  // The proposed entry may come first for its subject rather than its score (verdict.ts): an alternative
  // ranked below it is never shown as more likely than the entry whose fix is proposed.
  const proposed = matches[0]!.confidence;
  return { verdict: 'match', matches: matches.map((m, i) => (i > 0 && m.confidence > proposed ? { ...m, confidence: proposed } : m)), table: tableName };
}

/**
 * The most words a sentence shares with one of the entry's descriptions: of two descriptions a sentence covers
 * whole, the longer says more of it ("the CPU usage graph is empty but memory usage is fine" is the empty CPU
 * graphs' longer description before a missing dashboard's "graphs not showing").
 */
function wordsShared(s: Scored): number {
  return s.evidence.reduce((m, e) => Math.max(m, e.shared ?? 0), 0);
}

function firstLine(s: Scored): number {
  return s.evidence.reduce((m, e) => Math.min(m, e.line), Infinity);
}

/** The candidate shown for a scored entry; for a remedy the paste shows applied, with the line that shows it among its evidence. */
function candidate(s: Scored, entry: CatalogueEntry, text: string, calibration: readonly CalibrationPoint[], applied?: Applied): Candidate {
  const seen = new Set<number>();
  const evidence: Evidence[] = [];
  const shown = applied ? [{ line: applied.line, start: lineStart(text, applied.line), literal: applied.literal.toLowerCase(), signature: applied.literal }] : [];
  for (const f of [...shown, ...[...s.evidence].sort((a, b) => a.line - b.line)]) {
    if (seen.has(f.line)) continue;
    seen.add(f.line);
    evidence.push({ line: f.line, text: evidenceText(text, f.start, f.literal), signature: f.signature });
    if (evidence.length === EVIDENCE_CAP) break;
  }
  if (applied) evidence.sort((a, b) => a.line - b.line);
  // Shown as a probability of being right (calibration.ts); the raw score only ranks and decides.
  return { id: entry.id, ref: entry.ref, title: entry.title, confidence: probability(s.confidence, calibration), evidence };
}

/** Up to three entries the paste has something to do with, for "explain" (never a fix). */
function nearest(scored: readonly Scored[], entries: readonly CatalogueEntry[]): string[] {
  return scored
    .filter((s) => s.nearness > 0)
    .sort((a, b) => b.nearness - a.nearness || a.entry - b.entry)
    .slice(0, MAX_MATCHES)
    .map((s) => entries[s.entry]!.id);
}
