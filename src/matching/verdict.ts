import type { CatalogueEntry } from '../catalogue/model.js';
import { THRESHOLD, type Scored } from './score.js';
import { alreadyApplied } from './applied.js';
import { readSubject } from './subject.js';
import type { AskReason } from './types.js';

/**
 * Rules of reading that turn ranked scores into an answer: one entry clearly (`match`), a choice for the
 * person (`ask`), or nothing. An `ask` never proposes a fix, so it is the answer whenever proposing one
 * would be a guess between remedies or a remedy for someone else's object.
 */

/** Entries within this much of the best are as plausible as it: the person chooses. */
const CLOSE = 0.04;
/** Below this, a destructive remedy with gentler alternatives is not proposed alone. */
const SURE_ENOUGH_TO_DESTROY = 0.8;
/** Below this, a platform remedy for a paste that never names the platform is asked about, not proposed. */
const SURE_OF_SUBJECT = 0.6;
/** At most this many candidates are offered. */
export const MAX_MATCHES = 3;

export type Decision =
  | { readonly verdict: 'match'; readonly order: readonly Scored[] }
  | { readonly verdict: 'ask'; readonly order: readonly Scored[]; readonly why: AskReason }
  | { readonly verdict: 'no-match' };

const RISK = { 'read-only': 0, restart: 1, destructive: 2 } as const;

/** How much a fix of the entry can break: its first stage's riskiest step (what "Plan fix" starts with). */
export function riskOf(entry: CatalogueEntry): number {
  return Math.max(0, ...(entry.stages[0]?.steps ?? []).map((s) => RISK[s.risk]));
}

const rank = (a: Scored, b: Scored): number => b.confidence - a.confidence || a.entry - b.entry;

/** Decides the answer from every entry's score (indexed as `entries`); `ranked` are those at THRESHOLD or above, best first. */
export function decide(text: string, scored: readonly Scored[], ranked: readonly Scored[], entries: readonly CatalogueEntry[]): Decision {
  if (ranked.length === 0) return { verdict: 'no-match' };
  const subject = readSubject(text, ranked.flatMap((s) => s.evidence.slice(0, 2).map((f) => f.start)));
  const platformOnly = (s: Scored): boolean => (entries[s.entry]!.appliesTo ?? 'platform') === 'platform';
  // A platform remedy for a paste that names only others' objects (a user's pod, another chart's image) is vetoed.
  const kept = subject.platform || subject.foreign.length === 0 ? ranked : ranked.filter((s) => !platformOnly(s));
  if (kept.length === 0) return { verdict: 'no-match' };
  const top = kept[0]!;
  const topEntry = entries[top.entry]!;
  if (alreadyApplied(text, topEntry)) return { verdict: 'ask', order: kept.slice(0, MAX_MATCHES), why: 'applied' };
  const byId = new Map(entries.map((e, i) => [e.id, i]));
  // Only when the message the gentler entries share is all the paste shows ("reset the password" says which).
  const onlyShared = top.evidence.every((f) => topEntry.gentler?.forTexts.includes(f.literal));
  const gentler = (onlyShared ? (topEntry.gentler?.entries ?? []) : []).map((id) => byId.get(id)).filter((i): i is number => i !== undefined && scored[i] !== undefined);
  if (gentler.length > 0 && top.confidence < SURE_ENOUGH_TO_DESTROY && !gentler.some((i) => scored[i]!.confidence >= top.confidence)) {
    // The gentler entries explain the same message: they are shown with it, as likely as the top, in the catalogue's order.
    const first = gentler.map((i): Scored => ({ ...scored[i]!, confidence: Math.max(scored[i]!.confidence, top.confidence), evidence: scored[i]!.evidence.length > 0 ? scored[i]!.evidence : top.evidence }));
    return { verdict: 'ask', order: [...first, top].slice(0, MAX_MATCHES), why: 'gentler' };
  }
  const close = kept.filter((s) => top.confidence - s.confidence < CLOSE - 1e-9).slice(0, MAX_MATCHES);
  // Close candidates are asked about when proposing the best would start a destructive remedy while a gentler one fits as well.
  if (close.length >= 2 && close.some((s) => riskOf(entries[s.entry]!) < riskOf(topEntry))) {
    // When remedies are about as likely, the one that can break least is offered first.
    const order = [...close].sort((a, b) => riskOf(entries[a.entry]!) - riskOf(entries[b.entry]!) || rank(a, b));
    return { verdict: 'ask', order, why: 'close' };
  }
  if (platformOnly(top) && !subject.platform && top.confidence < SURE_OF_SUBJECT) return { verdict: 'ask', order: kept.slice(0, MAX_MATCHES), why: 'subject' };
  return { verdict: 'match', order: kept.slice(0, MAX_MATCHES) };
}

export { THRESHOLD };
