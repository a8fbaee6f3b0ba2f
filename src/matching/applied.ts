import type { CatalogueEntry } from '../catalogue/model.js';

/**
 * "Already tried": the paste shows the entry's fix in place (one of its `applied` texts), either as a line
 * of the person's configuration (`- --kubelet-insecure-tls` in the args they paste beside the error) or
 * in a sentence that says the error persists. Proposing the same fix again would be a remedy that has
 * already failed.
 */

/** Words with which people say that what they did has not helped. */
const PERSISTS = ['still', 'already', 'no effect', 'did not help', "didn't help", 'doesn\u2019t help', "doesn't help", 'does not help', 'not working', "doesn't work", 'does not work', 'ignored', 'no luck', 'same error', "isn't applying", 'not applying', 'not taking effect', 'no difference', 'even after'];

/** Words with which people say that what they did worked: the fix shown is then the entry's, confirmed. */
const WORKED = ['it works', 'it worked', 'works now', 'working now', 'fixed it', 'that fixed', 'this fixed', 'which fixed', 'solved it', 'resolved it', 'problem solved', 'issue resolved'];

/** Pastes longer than this are logs, not a person's account of what they tried. */
const ACCOUNT_CHARS = 64 * 1024;

/** Whether the paste says the entry's fix is already applied and the error persists. */
export function alreadyApplied(text: string, entry: CatalogueEntry): boolean {
  const applied = entry.signatures.applied;
  if (!applied || applied.length === 0 || text.length > ACCOUNT_CHARS) return false;
  const lower = text.toLowerCase();
  const defaults = new Set((entry.signatures.unapplied ?? []).map((v) => v.toLowerCase()));
  const persists = PERSISTS.some((p) => lower.includes(p));
  if (!persists && WORKED.some((w) => lower.includes(w))) return false;
  return applied.some((a) => shownInPlace(lower, a.toLowerCase(), defaults, persists));
}

/**
 * Whether some mention of the applied text shows the fix in place: not followed by a default value (one of
 * `defaults`), and either a configuration line of its own or, in a sentence, with words that it persists.
 */
function shownInPlace(lower: string, applied: string, defaults: ReadonlySet<string>, persists: boolean): boolean {
  for (let at = lower.indexOf(applied); at >= 0; at = lower.indexOf(applied, at + applied.length)) {
    if (defaults.size > 0 && defaults.has(valueAfter(lower, at + applied.length))) continue;
    if (persists || startsConfigLine(lower, at)) return true;
  }
  return false;
}

/**
 * Whether the line holding `at` starts with it, past indentation, a list's dash and quotes: a key or an
 * argument of the configuration in force (a commented `# - --flag` or a diff's added `+ --flag` is not).
 */
function startsConfigLine(lower: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = lower[i]!;
    if (c === '\n') return true;
    if (!' \t-"\''.includes(c)) return false;
  }
  return true;
}

/** The value written at `from`, past spaces and quotes, up to the next space, quote or separator. */
function valueAfter(lower: string, from: number): string {
  let start = from;
  while (start < lower.length && ' "\''.includes(lower[start]!)) start++;
  let end = start;
  while (end < lower.length && end - start < 32 && !' "\',;\n\r\t}'.includes(lower[end]!)) end++;
  return lower.slice(start, end);
}
