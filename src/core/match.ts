import { findEntry } from '../catalogue/index.js';
import type { AskReason, Candidate, MatchResult, TriedNote } from '../matching/index.js';
import { redact } from '../redact.js';
import { fixCommand, needsLine } from './fix-hint.js';
import { code, joined, lines, note, para, strong, t, type Choice, type Inline, type Part, type View } from './view.js';

/** Action ids of the choices on a match answer. */
export const matchActionIds = { planFix: 'match-plan-fix', explain: 'match-explain' } as const;
/** Matches the explain choices (one per entry in a block, so each carries its entry). */
export const explainActionPattern = /^match-explain-[a-z0-9-]+$/;

/** What a "Plan fix" choice carries: the entry, and the cluster when the message named one; the fix is planned when it is chosen. */
export interface PlanFixRef {
  e: string;
  c?: string;
}

/** A confidence as people read it on every surface (Slack, the terminal, the command line's text): 0.79 → 79%. JSON keeps the number. */
export const pct = (c: number) => `${Math.round(c * 100)}%`;

const explainChoice = (id: string, label: string): Choice => ({ label, action: `${matchActionIds.explain}-${id}`, value: { e: id }, command: `explain ${id}` });

/**
 * What the cluster adds to an answer (src/core/paste-view.ts): whether the top entry's fix is proposed,
 * the cluster a "Plan fix" plans on, a line per candidate of what the cluster shows, and lines before
 * and after the answer.
 */
export interface Shown {
  /** The top entry's Plan fix is the primary action (a `match` answer); false: it is offered, not pushed. */
  readonly proposed: boolean;
  /** The cluster a "Plan fix" plans on, when the message named one (else the default cluster). */
  readonly planOn?: string;
  readonly seen?: (c: Candidate) => Inline | undefined;
  readonly before?: readonly Part[];
  readonly after?: readonly Inline[];
  /** Other candidates keep their own "Plan fix" (candidates of an ask the cluster settled). */
  readonly plannableAlternatives?: boolean;
}

const textOnly: Shown = { proposed: true };

function planChoice(id: string, label: string, shown: Shown, primary: boolean): Choice {
  const value: PlanFixRef = { e: id, ...(shown.planOn ? { c: shown.planOn } : {}) };
  return { label, action: matchActionIds.planFix, value, ...(primary ? { style: 'primary' as const } : {}), command: fixCommand(id, shown.planOn) };
}

/** An evidence line as shown: redacted and cut. */
function evidenceLine(line: number, text: string) {
  const shown = redact(text).trim();
  return t`line ${line}: ${code(shown.length > 280 ? `${shown.slice(0, 273)}… (cut)` : shown)}`;
}

/** A candidate's text evidence, and under it what the cluster shows of it. */
function evidenceLines(c: Candidate, shown: Shown): Inline[] {
  const seen = shown.seen?.(c);
  return [...c.evidence.map((e) => evidenceLine(e.line, e.text)), ...(seen ? [seen] : [])];
}

const withAfter = (parts: Part[], shown: Shown): Part[] => (shown.after && shown.after.length > 0 ? [...parts, note(...shown.after)] : parts);

/**
 * The answer to a paste: the top entry, its confidence and evidence, "Plan fix", and up to two
 * alternatives; or, on no match, a short "no catalogued remedy" and the nearest entries to explain.
 * `shown` adds the cluster's evidence (src/core/paste-view.ts); without it, the text's answer alone.
 */
export function matchView(result: MatchResult, shown: Shown = textOnly): View {
  if (result.verdict === 'no-match' && 'tried' in result) return triedView(result.tried, result.note, result.nearest.slice(1), shown);
  if (result.verdict === 'no-match') {
    const why = result.note === 'binary' ? 'This looks like binary data, not text I can read.' : 'No catalogued remedy matches this.';
    const parts: Part[] = [para(t`🤷 ${why} I am not proposing a fix.`)];
    if (result.nearest.length > 0) {
      parts.push(note(t`Nearest entries, to read about: ${joined(result.nearest.map((id) => [code(id)]), ', ')}`));
      parts.push({ kind: 'choices', id: 'match-nearest', choices: result.nearest.map((id) => explainChoice(id, `Explain ${id}`)) });
    }
    return { summary: t`${why}`, parts };
  }
  if (result.verdict === 'ask') return askView(result.matches, result.why, shown);
  return topView(result.matches, shown);
}

/**
 * How sure a proposal sounds: "Likely" only when answers shown at its confidence were right more often than not
 * (the confidence is calibrated, src/matching/calibration.ts); "Possibly" below that.
 */
export function likely(candidate: Candidate): string {
  return candidate.confidence >= 0.5 ? 'Likely' : 'Possibly';
}

/** A `match` layout: the first candidate with its cause, evidence and Plan fix; the others as alternatives. */
export function topView(candidates: readonly Candidate[], shown: Shown): View {
  const [top, ...rest] = candidates;
  const entry = findEntry(top!.id);
  const parts: Part[] = [...(shown.before ?? []), para(t`🔎 ${strong(top!.title)} (${code(top!.id)}, guide ${top!.ref}) — confidence ${pct(top!.confidence)}`)];
  const needs = needsLine(top!.id);
  if (entry) parts.push(note(t`Cause: ${entry.cause}`, ...(needs ? [needs] : [])));
  parts.push(lines([t`${strong('Evidence')}`, ...evidenceLines(top!, shown)]));
  parts.push({ kind: 'choices', id: 'match-top', choices: [planChoice(top!.id, 'Plan fix', shown, shown.proposed), explainChoice(top!.id, 'Explain')] });
  const alternatives = rest.slice(0, 2);
  if (alternatives.length > 0) {
    const also = (a: Candidate): Inline => {
      const seen = shown.seen?.(a);
      return t`${code(a.id)} — ${a.title} (${pct(a.confidence)})${seen ? [' — ', ...seen] : []}`;
    };
    parts.push(note(t`Also possible: ${joined(alternatives.map(also), ' · ')}`));
    const choices = alternatives.flatMap((a) => (shown.plannableAlternatives ? [planChoice(a.id, `Plan fix ${a.id}`, shown, false)] : []).concat(explainChoice(a.id, `Explain ${a.id}`)));
    parts.push({ kind: 'choices', id: 'match-alternatives', choices });
  }
  return { summary: t`${likely(top!)} ${top!.id} (guide ${top!.ref}), confidence ${pct(top!.confidence)}`, parts: withAfter(parts, shown) };
}

/** Why the matcher asks, in the person's terms. */
export const askWhy: Record<AskReason, string> = {
  close: 'These entries fit about equally well, so I am not choosing one for you.',
  gentler: 'This message has gentler explanations than the destructive remedy, so check those first.',
  subject: "Nothing here shows that this is about what the remedy changes (the platform, or for a generic remedy the kind of thing it acts on, such as an ingress), so it may be another product's error.",
};

/** Why the guide has nothing further for a remedy the paste shows applied already, or asks to avoid (`declined`). */
export function triedSentence(note: TriedNote, id: string, detail = ''): Inline {
  return note === 'declined'
    ? t`You ask for another way than the guide's remedy for ${code(id)}${detail}; the guide has no other for it.`
    : t`The guide's remedy for ${code(id)}${detail} appears to be applied already and the error persists; the guide has nothing further for it.`;
}

/**
 * A no-match because the guide's remedy is already in place and the error persists, or because the person asks
 * for another way than it: what shows it, and no fix (proposing the same remedy again would be one that has
 * already failed, or one the person asked to avoid); the entry can be explained and the doctor run to see what
 * the cluster shows.
 */
function triedView(tried: Candidate, why: TriedNote, others: readonly string[], shown: Shown): View {
  const parts: Part[] = [
    ...(shown.before ?? []),
    para(t`🤷 ${triedSentence(why, tried.id, ` (${tried.title}, guide ${tried.ref})`)} I am not proposing it${why === 'declined' ? '' : ' again'}: explain it, or run the doctor to see what the cluster shows.`),
    lines([t`${strong('What shows it')}`, ...evidenceLines(tried, shown)]),
    { kind: 'choices', id: 'match-tried', choices: [explainChoice(tried.id, `Explain ${tried.id}`), ...others.map((id) => explainChoice(id, `Explain ${id}`))] },
  ];
  if (others.length > 0) parts.splice(parts.length - 1, 0, note(t`Other nearest entries, to read about: ${joined(others.map((id) => [code(id)]), ', ')}`));
  const summary = why === 'declined' ? t`You ask for another way than the guide's remedy for ${tried.id}; the guide has no other` : t`The guide's remedy for ${tried.id} appears to be applied already; no further remedy`;
  return { summary, parts: withAfter(parts, shown) };
}

/**
 * An `ask` answer: the plausible entries in order (the least destructive first), each with its evidence
 * and its own choices; no fix is proposed and no choice is the primary one. The person picks.
 */
export function askView(candidates: readonly Candidate[], why: AskReason, shown: Shown = textOnly): View {
  const parts: Part[] = [...(shown.before ?? []), para(t`🤔 ${askWhy[why]} I am not proposing a fix: pick the one that fits, or explain them first.`)];
  candidates.forEach((c, i) => {
    const needs = needsLine(c.id);
    parts.push(lines([t`${i + 1}. ${strong(c.title)} (${code(c.id)}, guide ${c.ref}) — confidence ${pct(c.confidence)}`, ...evidenceLines(c, shown), ...(needs ? [needs] : [])]));
    parts.push({ kind: 'choices', id: `match-ask-${c.id}`, choices: [planChoice(c.id, `Plan fix ${c.id}`, shown, false), explainChoice(c.id, `Explain ${c.id}`)] });
  });
  return { summary: t`Could be ${candidates.map((c) => c.id).join(' or ')}: which one?`, parts: withAfter(parts, shown) };
}
