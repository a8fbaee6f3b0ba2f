import type { CatalogueEntry } from '../catalogue/model.js';

/**
 * "Already tried": the paste shows the entry's fix in place (one of its `applied` texts) and says the
 * error persists. Proposing the same fix again would be a remedy that has already failed.
 */

/** Words with which people say that what they did has not helped. */
const PERSISTS = ['still', 'already', 'no effect', 'did not help', "didn't help", 'doesn\u2019t help', "doesn't help", 'does not help', 'not working', "doesn't work", 'does not work', 'ignored', 'no luck', 'same error', "isn't applying", 'not applying', 'not taking effect', 'no difference', 'even after'];

/** Pastes longer than this are logs, not a person's account of what they tried. */
const ACCOUNT_CHARS = 64 * 1024;

/** Whether the paste says the entry's fix is already applied and the error persists. */
export function alreadyApplied(text: string, entry: CatalogueEntry): boolean {
  const applied = entry.signatures.applied;
  if (!applied || applied.length === 0 || text.length > ACCOUNT_CHARS) return false;
  const lower = text.toLowerCase();
  const defaults = new Set((entry.signatures.unapplied ?? []).map((v) => v.toLowerCase()));
  return applied.some((a) => shownInPlace(lower, a.toLowerCase(), defaults)) && PERSISTS.some((p) => lower.includes(p));
}

/** Whether some mention of the applied text is not followed by a default value (one of `defaults`). */
function shownInPlace(lower: string, applied: string, defaults: ReadonlySet<string>): boolean {
  for (let at = lower.indexOf(applied); at >= 0; at = lower.indexOf(applied, at + applied.length)) {
    if (defaults.size === 0 || !defaults.has(valueAfter(lower, at + applied.length))) return true;
  }
  return false;
}

/** The value written at `from`, past spaces and quotes, up to the next space, quote or separator. */
function valueAfter(lower: string, from: number): string {
  let start = from;
  while (start < lower.length && ' "\''.includes(lower[start]!)) start++;
  let end = start;
  while (end < lower.length && end - start < 32 && !' "\',;\n\r\t}'.includes(lower[end]!)) end++;
  return lower.slice(start, end);
}
