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
  return applied.some((a) => lower.includes(a.toLowerCase())) && PERSISTS.some((p) => lower.includes(p));
}
