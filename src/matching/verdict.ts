import type { CatalogueEntry } from '../catalogue/model.js';
import { THRESHOLD, type Scored } from './score.js';
import { alreadyApplied, declinedFix, type Applied } from './applied.js';
import { isRegistry } from './products.js';
import { readSubject, type Subject } from './subject.js';
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
/**
 * Below this, a platform remedy for a paste that names nothing (neither the platform nor anything else)
 * and only describes a symptom in words, without one of the entry's exact errors, is not offered: a short
 * description ("admin password", "terminal disconnected") fits any product's screens as well.
 */
const SURE_OF_DESCRIPTION = 0.65;
/** At most this many candidates are offered. */
export const MAX_MATCHES = 3;

export type Decision = (
  | { readonly verdict: 'match'; readonly order: readonly Scored[] }
  | { readonly verdict: 'ask'; readonly order: readonly Scored[]; readonly why: AskReason }
  | { readonly verdict: 'no-match'; readonly tried?: Scored; readonly applied?: Applied; readonly declined?: boolean }
) & {
  /** Whether the paste names the platform (subject.ts): the confidence of a platform remedy is read from its own table for each case. */
  readonly platformNamed?: boolean;
};

const RISK = { 'read-only': 0, restart: 1, destructive: 2 } as const;

/** How much a fix of the entry can break: its first stage's riskiest step (what "Plan fix" starts with). */
export function riskOf(entry: CatalogueEntry): number {
  return Math.max(0, ...(entry.stages[0]?.steps ?? []).map((s) => RISK[s.risk]));
}

const rank = (a: Scored, b: Scored): number => b.confidence - a.confidence || a.entry - b.entry;

/**
 * Decides the answer from every entry's score (indexed as `entries`); `ranked` are those at THRESHOLD or above, best first.
 *
 * The subject decides first. A remedy that acts on the platform (or on the apps it deploys) is for a paste
 * about the platform: one that names only others' objects or products gets no such remedy, and one that
 * names nothing leaves the subject unknown. So does a generic remedy's paste that never names the kind of
 * thing the remedy acts on (its `subject`: a 413 with no ingress in sight may be any proxy's). With the
 * subject unknown, an exact error of the entry is worth asking about; a description is not worth a fix
 * and the entry is only named as nearest.
 */
export function decide(text: string, scored: readonly Scored[], rankedByScore: readonly Scored[], entries: readonly CatalogueEntry[]): Decision {
  if (rankedByScore.length === 0) return { verdict: 'no-match' };
  const subject = readSubject(text, rankedByScore.flatMap((s) => s.evidence.slice(0, 2).map((f) => f.start)));
  return { ...decideFor(subject, text, scored, rankedByScore, entries), platformNamed: subject.platform };
}

function decideFor(subject: Subject, text: string, scored: readonly Scored[], rankedByScore: readonly Scored[], entries: readonly CatalogueEntry[]): Decision {
  const applies = (s: Scored): string => entries[s.entry]!.appliesTo ?? 'platform';
  // Another product or object named, the platform named only to deny it, or the person deploying by other means
  // (a tutorial, their own helm install): the paste is about something else.
  const othersOnly = !subject.platform && (subject.foreign.length > 0 || subject.denied || subject.ownWorkflow());
  // An entry whose symptoms have many causes is only a candidate when the paste shows a mark of its own
  // (read where the subject is read: the whole of a short paste, around the evidence in a long one).
  const causeShown = (s: Scored): boolean => {
    const marks = entries[s.entry]!.signatures.requires;
    return marks === undefined || subject.mentions(marks);
  };
  const ranked = rankedByScore.filter(causeShown);
  if (ranked.length === 0) return { verdict: 'no-match' };
  // A platform remedy for a paste that names only others' objects or products is vetoed; a platform-apps one is
  // not (the apps the platform deploys have users' names), and neither is a generic one.
  const candidates = othersOnly ? ranked.filter((s) => applies(s) !== 'platform') : ranked;
  const shown = (s: Scored): boolean => {
    const own = entries[s.entry]!.subject;
    if (own !== undefined && !subject.mentions(own.names) && !(own.platform && subject.platform) && !(own.builtImage === true && subject.builtImage())) return false;
    if (applies(s) === 'platform') return subject.platform || !othersOnly;
    // The apps the platform deploys pull from any registry; another product's pipeline is not one of them.
    if (applies(s) === 'platform-apps') return subject.platform || (!subject.ownWorkflow() && subject.products.every(isRegistry));
    return true;
  };
  // Entries whose subject the paste shows come first; the others stay as alternatives.
  const kept = [...candidates.filter(shown), ...candidates.filter((s) => !shown(s))];
  if (kept.length === 0) return { verdict: 'no-match' };
  const top = kept[0]!;
  const topEntry = entries[top.entry]!;
  const subjectUnknown = !shown(top);
  const exact = top.evidence.some((f) => f.exact);
  if (subjectUnknown && !exact) return { verdict: 'no-match' };
  if (applies(top) === 'platform' && !subject.platform && !exact && top.confidence < SURE_OF_DESCRIPTION) return { verdict: 'no-match' };
  // The guide's remedy shown in place with the error persisting: the guide has nothing further for it.
  const applied = alreadyApplied(text, topEntry);
  if (applied) return { verdict: 'no-match', tried: top, applied };
  // The person asks for another way than the guide's remedy: the guide has no other.
  const declined = declinedFix(text, topEntry);
  if (declined) return { verdict: 'no-match', tried: top, applied: declined, declined: true };
  const byId = new Map(entries.map((e, i) => [e.id, i]));
  // Only when the message the gentler entries share is all the paste shows ("reset the password" says which).
  const onlyShared = top.evidence.every((f) => topEntry.gentler?.forTexts.includes(f.literal));
  const gentler = (onlyShared ? (topEntry.gentler?.entries ?? []) : []).map((id) => byId.get(id)).filter((i): i is number => i !== undefined && scored[i] !== undefined);
  if (gentler.length > 0 && (top.confidence < SURE_ENOUGH_TO_DESTROY || !subject.platform) && !gentler.some((i) => scored[i]!.confidence >= top.confidence)) {
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
  if (subjectUnknown) return { verdict: 'ask', order: kept.slice(0, MAX_MATCHES), why: 'subject' };
  return { verdict: 'match', order: kept.slice(0, MAX_MATCHES) };
}

export { THRESHOLD };
