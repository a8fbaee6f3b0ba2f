import type { CatalogueEntry } from '../catalogue/model.js';
import { patterns } from './patterns.js';

/**
 * "Already tried": the paste shows the entry's fix in place (one of its `applied` texts), either as a line
 * of the person's configuration (`- --kubelet-insecure-tls` in the args they paste beside the error) or
 * in a sentence that says the error persists. Proposing the same fix again would be a remedy that has
 * already failed. A fix only mentioned is not in place: asked about ("should I add …?"), not made yet, a
 * diff's removed line, or a block the person heads as what they had before; then the fix is proposed.
 */

/** Words with which people say that what they did has not helped. */
const PERSISTS = ['still', 'already', 'no effect', 'did not help', "didn't help", 'doesn\u2019t help', "doesn't help", 'does not help', 'not working', "doesn't work", 'does not work', 'ignored', 'no luck', 'same error', "isn't applying", 'not applying', 'not taking effect', 'no difference', 'even after'];

/** Pastes longer than this are logs, not a person's account of what they tried. */
const ACCOUNT_CHARS = 64 * 1024;
/** How far back a clause is read for words that the fix is not made, and how many lines a heading is looked for. */
const CLAUSE_BACK = 80;
const HEADING_LINES = 12;

/** Where the paste shows the fix in force: the 1-based line, and the applied text as written in the catalogue. */
export interface Applied {
  readonly line: number;
  readonly literal: string;
}

/** Where the paste says the entry's fix is already applied and the error persists; undefined when it does not. */
export function alreadyApplied(text: string, entry: CatalogueEntry): Applied | undefined {
  const applied = entry.signatures.applied;
  if (!applied || applied.length === 0 || text.length > ACCOUNT_CHARS) return undefined;
  // Invisible characters are taken out, never added or turned into line breaks: line numbers stay the text's.
  const lower = text.replace(patterns.invisible, '').toLowerCase();
  // Most pastes never mention the fix: the rest of the reading is only for those that do.
  if (!applied.some((a) => lower.includes(a.toLowerCase()))) return undefined;
  const defaults = new Set((entry.signatures.unapplied ?? []).map((v) => v.toLowerCase()));
  const persists = PERSISTS.some((p) => lower.includes(p));
  if (!persists && patterns.saysWorked.test(lower)) return undefined;
  // The fix said to work in its own sentence ("`--kubelet-insecure-tls` works around this") confirms the entry,
  // whatever "still" stands elsewhere in the paste.
  if (applied.some((a) => workedBeside(lower, a.toLowerCase()))) return undefined;
  const diff = patterns.diffMark.test(lower);
  for (const literal of applied) {
    const at = shownInPlace(lower, literal.toLowerCase(), defaults, persists, diff);
    if (at >= 0) return { line: lineNumber(lower, at), literal };
  }
  return undefined;
}

/**
 * Where the paste says that the entry's fix worked ("I had to add --kubelet-insecure-tls. It works."): a mention of
 * one of its `applied` texts, made (not asked about or planned), with words that it worked in its sentence or the
 * next and none that the error persists. Such a paste is the entry's: it tells its cure. `lower` is the paste in
 * lower case; undefined when it says no such thing.
 */
export function fixWorked(lower: string, entry: CatalogueEntry): Applied | undefined {
  const applied = entry.signatures.applied;
  if (!applied) return undefined;
  for (const literal of applied) {
    const text = literal.toLowerCase();
    for (let at = lower.indexOf(text); at >= 0; at = lower.indexOf(text, at + text.length)) {
      const from = at + text.length;
      // To the end of the sentence after the mention's: "… add the flag\n\nIt works."
      const end = sentenceEnd(lower, sentenceEnd(lower, from) + 1);
      const told = lower.slice(at, end);
      if (patterns.saysWorked.test(told) && !PERSISTS.some((p) => told.includes(p)) && !notMade(lower, at, from)) return { line: lineNumber(lower, at), literal };
    }
  }
  return undefined;
}

/** The paste in lower case when it is a person's account (at most `chars` long) that says something worked; else undefined. */
export function workedAccount(text: string, chars: number): string | undefined {
  if (text.length > chars) return undefined;
  const lower = text.toLowerCase();
  return patterns.saysWorked.test(lower) ? lower : undefined;
}

/** Where the sentence that `from` is in ends (sentenceEndsAt), past the blank lines and spaces it starts with; at most CLAUSE_BACK × 2 on. */
function sentenceEnd(lower: string, from: number): number {
  let i = from;
  while (i < lower.length && ' \t\r\n'.includes(lower[i]!)) i++;
  const start = i;
  while (i < lower.length && i - start < CLAUSE_BACK * 2 && !sentenceEndsAt(lower, i)) i++;
  return i;
}

/**
 * Where the paste asks for another way than the entry's fix (one of its `declines` texts): the first line that
 * says so; undefined when none does. Proposing the fix the person asks to avoid would not answer them.
 */
export function declinedFix(text: string, entry: CatalogueEntry): Applied | undefined {
  const declines = entry.signatures.declines;
  if (!declines || declines.length === 0 || text.length > ACCOUNT_CHARS) return undefined;
  const lower = text.replace(patterns.invisible, '').toLowerCase();
  for (const literal of declines) {
    const at = lower.indexOf(literal.toLowerCase());
    if (at >= 0) return { line: lineNumber(lower, at), literal };
  }
  return undefined;
}

/**
 * Where a mention of the applied text shows the fix in place (-1 when none does): not followed by a default
 * value (one of `defaults`), and either a configuration line of its own or, in a sentence, with words that it
 * persists and none that it is asked about or not made.
 */
function shownInPlace(lower: string, applied: string, defaults: ReadonlySet<string>, persists: boolean, diff: boolean): number {
  for (let at = lower.indexOf(applied); at >= 0; at = lower.indexOf(applied, at + applied.length)) {
    const valueEnd = at + applied.length;
    if (defaults.size > 0 && defaults.has(valueAfter(lower, valueEnd))) continue;
    const config = configLine(lower, at, diff);
    if (config === 'removed') continue;
    if (config === 'in-force' || (persists && !notMade(lower, at, valueEnd))) return at;
  }
  return -1;
}

/**
 * Whether the line holding `at` starts with it, past indentation, one list dash and quotes: a key or an
 * argument of the configuration in force ('in-force'), unless a diff removes it or a heading above says it
 * is not in force ('removed'); 'none' when the line is not configuration (a commented `# - --flag`, a diff's
 * added `+ --flag`, a sentence).
 */
function configLine(lower: string, at: number, diff: boolean): 'in-force' | 'removed' | 'none' {
  let dashes = 0;
  let i = at - 1;
  // An annotation's key is the text behind its prefix (`nginx.ingress.kubernetes.io/proxy-body-size: 50m`).
  if (lower[i] === '/') while (i >= 0 && isKeyChar(lower.charCodeAt(i))) i--;
  for (; i >= 0 && lower[i] !== '\n'; i--) {
    const c = lower[i]!;
    if (c === '-') dashes++;
    else if (!' \t"\''.includes(c)) return 'none';
  }
  // A list item under a diff's "-" (`-   - --flag`), or a line a unified diff removes (`-  --flag`).
  if (dashes > 1 || (diff && lower[i + 1] === '-')) return 'removed';
  return underNotInForce(lower, i) ? 'removed' : 'in-force';
}

/** A character of an annotation's prefix: a letter, a digit, a dot, a dash or the slash before the key. */
function isKeyChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 47;
}

/** Whether the block that ends at line break `end` is headed by a line that says it is not in force (patterns.notInForce). */
function underNotInForce(lower: string, end: number): boolean {
  for (let n = 0; n < HEADING_LINES && end > 0; n++) {
    const start = lower.lastIndexOf('\n', end - 1) + 1;
    const line = lower.slice(start, end).trim();
    if (line === '') return false;
    const heading = line.startsWith('#') || line.startsWith('//') || ((line.endsWith(':') || line.endsWith('?')) && !line.startsWith('-'));
    if (heading && patterns.notInForce.test(line)) return true;
    end = start - 1;
  }
  return false;
}

/**
 * Whether the clause around a mention asks about the fix or says it is not made: words of patterns.fixNotMade before it
 * in its clause, or the clause ending in a question mark.
 */
function notMade(lower: string, at: number, from: number): boolean {
  let start = at;
  while (start > 0 && at - start < CLAUSE_BACK && !clauseEndsAt(lower, start - 1)) start--;
  if (patterns.fixNotMade.test(lower.slice(start, at))) return true;
  let end = from;
  while (end < lower.length && end - from < CLAUSE_BACK && !clauseEndsAt(lower, end)) end++;
  return lower[end] === '?';
}

/** Whether a sentence that mentions the applied text says that it worked (patterns.saysWorked, from the mention to the sentence's end). */
function workedBeside(lower: string, applied: string): boolean {
  for (let at = lower.indexOf(applied); at >= 0; at = lower.indexOf(applied, at + applied.length)) {
    let end = at + applied.length;
    while (end < lower.length && end - at < CLAUSE_BACK * 2 && !sentenceEndsAt(lower, end)) end++;
    const sentence = lower.slice(at, end);
    if (patterns.saysWorked.test(sentence)) return true;
  }
  return false;
}

/** Whether a sentence ends at `i`: where a clause ends (clauseEndsAt), except at a comma. */
function sentenceEndsAt(lower: string, i: number): boolean {
  return lower[i] !== ',' && clauseEndsAt(lower, i);
}

/** Whether a clause ends at `i`: a line break, or , ; ? ! or a full stop followed by a space (not a dot in a name). */
function clauseEndsAt(lower: string, i: number): boolean {
  const c = lower[i]!;
  if (c === '\n' || c === '?' || c === '!' || c === ';') return true;
  return (c === ',' || c === '.') && (i + 1 >= lower.length || ' \t\n'.includes(lower[i + 1]!));
}

function lineNumber(lower: string, at: number): number {
  let line = 1;
  for (let i = lower.indexOf('\n'); i >= 0 && i < at; i = lower.indexOf('\n', i + 1)) line++;
  return line;
}

/** The value written at `from`, past spaces and quotes, up to the next space, quote or separator. */
function valueAfter(lower: string, from: number): string {
  let start = from;
  while (start < lower.length && ' "\''.includes(lower[start]!)) start++;
  let end = start;
  while (end < lower.length && end - start < 32 && !' "\',;\n\r\t}'.includes(lower[end]!)) end++;
  return lower.slice(start, end);
}
