import type { Evidence, Finding } from '../doctor/index.js';
import type { Candidate, MatchResult } from '../matching/index.js';

/**
 * A paste's text answer weighed against the cluster (issue 12, item 7). The matcher reads words; the
 * doctor's detectors read the cluster. This joins the two, purely: what is proposed, in what order,
 * and what each candidate looks like in the cluster. The surfaces fetch the findings and render.
 */

/** What the cluster said about the paste's candidates: their findings, or why there are none. */
export type ClusterEvidence =
  | { readonly ok: true; readonly cluster: string; readonly findings: readonly Finding[] }
  | { readonly ok: false; readonly cluster?: string; readonly why: string };

/** One candidate's symptom as the cluster shows it. */
export type Seen =
  | { readonly state: 'present'; readonly evidence: readonly Evidence[] }
  | { readonly state: 'absent' }
  | { readonly state: 'unknown'; readonly reason: string; readonly message?: string }
  | { readonly state: 'not-observable'; readonly check?: string };

/** A candidate of the text's answer with what the cluster shows of it. */
export interface Weighed {
  readonly candidate: Candidate;
  readonly seen: Seen;
}

/**
 * How the cluster changed the text's answer:
 * - `confirmed`: the proposed entry's symptom is seen; the proposal stands.
 * - `decided`: of the text's candidates exactly one is seen; it is proposed, first.
 * - `not-seen`: the text's proposal is absent from the cluster; it is not pushed (still plannable).
 * - `unchanged`: the cluster could not tell about the proposal (unknown, not observable); the text's answer stands.
 * - `still-ask`: an ask the cluster did not settle (none or several seen).
 * - `tried`: a remedy the paste shows applied already (a `no-match`): what the cluster shows of it, nothing proposed.
 */
export type Outcome = 'confirmed' | 'decided' | 'not-seen' | 'unchanged' | 'still-ask' | 'tried';

/**
 * A paste's answer as shown: the text's alone (`text`: nothing to check), the text's while the
 * cluster is being read (`pending`), the text's with why the cluster could not be read
 * (`unavailable`), or weighed against the cluster (`checked`). `named`: the message named the cluster
 * (rather than it being the default), so a "Plan fix" plans on it.
 */
export type PasteAnswer =
  | { readonly kind: 'text'; readonly result: MatchResult }
  | { readonly kind: 'pending'; readonly result: MatchResult; readonly cluster: string; readonly named: boolean }
  | { readonly kind: 'unavailable'; readonly result: MatchResult; readonly cluster?: string; readonly named?: boolean; readonly why: string }
  | {
      readonly kind: 'checked';
      readonly result: MatchResult;
      readonly cluster: string;
      readonly named: boolean;
      readonly outcome: Outcome;
      /** The candidates in the order shown. */
      readonly order: readonly Weighed[];
      /** The entry whose fix is proposed (its Plan fix the primary action); none when nothing is pushed. */
      readonly proposed?: string;
    };

/** What a finding says of a candidate; a candidate the worker did not report on is unknown. */
export function seenOf(findings: readonly Finding[], id: string): Seen {
  const f = findings.find((x) => x.id === id);
  if (!f) return { state: 'unknown', reason: 'error', message: 'the worker did not report on it' };
  switch (f.state) {
    case 'present':
      return { state: 'present', evidence: f.evidence };
    case 'absent':
      return { state: 'absent' };
    case 'not-observable':
      return { state: 'not-observable', ...(f.message ? { check: f.message } : {}) };
    case 'unknown':
      return { state: 'unknown', reason: f.reason ?? 'error', ...(f.message ? { message: f.message } : {}) };
  }
}

/** Candidates whose symptom is seen first and those not seen last, the text's order kept within each. */
function lowered(weighed: readonly Weighed[]): Weighed[] {
  const rank = (w: Weighed) => (w.seen.state === 'present' ? 0 : w.seen.state === 'absent' ? 2 : 1);
  return [...weighed].sort((a, b) => rank(a) - rank(b));
}

/**
 * The text's answer and the cluster's findings → the answer shown. A `no-match` stays as it is (there
 * is nothing to check). The cluster decides between the text's candidates when exactly one of them is
 * seen; a proposal whose symptom the cluster does not show is not pushed; what the cluster cannot tell
 * (unknown, not observable) changes nothing. A remedy shown already applied is a `no-match`, never
 * proposed again whatever the cluster shows; what the cluster shows of its symptom is still shown.
 */
export function reconcile(result: MatchResult, evidence: ClusterEvidence, named = false): PasteAnswer {
  if (result.verdict === 'no-match' && !('tried' in result)) return { kind: 'text', result };
  if (!evidence.ok) return { kind: 'unavailable', result, why: evidence.why, ...(evidence.cluster ? { cluster: evidence.cluster, named } : {}) };
  const base = { kind: 'checked', result, cluster: evidence.cluster, named } as const;
  if (result.verdict === 'no-match') return { ...base, outcome: 'tried', order: [{ candidate: result.tried, seen: seenOf(evidence.findings, result.tried.id) }] };
  const weighed = result.matches.map((candidate): Weighed => ({ candidate, seen: seenOf(evidence.findings, candidate.id) }));
  const present = weighed.filter((w) => w.seen.state === 'present');
  const decided = (chosen: Weighed): PasteAnswer => ({ ...base, outcome: 'decided', order: [chosen, ...lowered(weighed.filter((w) => w !== chosen))], proposed: chosen.candidate.id });
  if (result.verdict === 'ask') {
    if (present.length === 1) return decided(present[0]!);
    return { ...base, outcome: 'still-ask', order: lowered(weighed) };
  }
  const top = weighed[0]!;
  if (top.seen.state === 'present') return { ...base, outcome: 'confirmed', order: weighed, proposed: top.candidate.id };
  if (top.seen.state === 'absent') return present.length === 1 ? decided(present[0]!) : { ...base, outcome: 'not-seen', order: weighed };
  return { ...base, outcome: 'unchanged', order: weighed, proposed: top.candidate.id };
}

/** The entries a paste's answer asks the cluster about: its candidates, or the remedy it shows applied already (none for another no-match). */
export function entriesToCheck(result: MatchResult): string[] {
  if (result.verdict === 'no-match') return 'tried' in result ? [result.tried.id] : [];
  return result.matches.map((m) => m.id);
}
