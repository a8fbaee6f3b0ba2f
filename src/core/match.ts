import { findEntry } from '../catalogue/index.js';
import type { AskReason, Candidate, MatchResult } from '../matching/index.js';
import { redact } from '../redact.js';
import { code, joined, lines, note, para, strong, t, type Choice, type Part, type View } from './view.js';

/** Action ids of the choices on a match answer. */
export const matchActionIds = { planFix: 'match-plan-fix', explain: 'match-explain' } as const;
/** Matches the explain choices (one per entry in a block, so each carries its entry). */
export const explainActionPattern = /^match-explain-[a-z0-9-]+$/;

/** What a "Plan fix" choice carries: the entry only; the fix is planned when it is chosen. */
export interface PlanFixRef {
  e: string;
}

const pct = (c: number) => `${Math.round(c * 100)}%`;

const explainChoice = (id: string, label: string): Choice => ({ label, action: `${matchActionIds.explain}-${id}`, value: { e: id }, command: `explain ${id}` });

/** An evidence line as shown: redacted and cut. */
function evidenceLine(line: number, text: string) {
  const shown = redact(text).trim();
  return t`line ${line}: ${code(shown.length > 280 ? `${shown.slice(0, 273)}… (cut)` : shown)}`;
}

/**
 * The answer to a paste: the top entry, its confidence and evidence, "Plan fix", and up to two
 * alternatives; or, on no match, a short "no catalogued remedy" and the nearest entries to explain.
 */
export function matchView(result: MatchResult): View {
  if (result.verdict === 'no-match') {
    const why = result.note === 'binary' ? 'This looks like binary data, not text I can read.' : 'No catalogued remedy matches this.';
    const parts: Part[] = [para(t`🤷 ${why} I am not proposing a fix.`)];
    if (result.nearest.length > 0) {
      parts.push(note(t`Nearest entries, to read about: ${joined(result.nearest.map((id) => [code(id)]), ', ')}`));
      parts.push({ kind: 'choices', id: 'match-nearest', choices: result.nearest.map((id) => explainChoice(id, `Explain ${id}`)) });
    }
    return { summary: t`${why}`, parts };
  }
  if (result.verdict === 'ask') return askView(result.matches, result.why);
  const [top, ...rest] = result.matches;
  const entry = findEntry(top!.id);
  const parts: Part[] = [para(t`🔎 ${strong(top!.title)} (${code(top!.id)}, guide ${top!.ref}) — confidence ${pct(top!.confidence)}`)];
  if (entry) parts.push(note(t`Cause: ${entry.cause}`));
  parts.push(lines([t`${strong('Evidence')}`, ...top!.evidence.map((e) => evidenceLine(e.line, e.text))]));
  parts.push({
    kind: 'choices',
    id: 'match-top',
    choices: [
      { label: 'Plan fix', action: matchActionIds.planFix, value: { e: top!.id } satisfies PlanFixRef, style: 'primary', command: `fix ${top!.id}` },
      explainChoice(top!.id, 'Explain'),
    ],
  });
  const alternatives = rest.slice(0, 2);
  if (alternatives.length > 0) {
    parts.push(note(t`Also possible: ${joined(alternatives.map((a) => t`${code(a.id)} — ${a.title} (${pct(a.confidence)})`), ' · ')}`));
    parts.push({ kind: 'choices', id: 'match-alternatives', choices: alternatives.map((a) => explainChoice(a.id, `Explain ${a.id}`)) });
  }
  return { summary: t`Likely ${top!.id} (guide ${top!.ref}), confidence ${pct(top!.confidence)}`, parts };
}

/** Why the matcher asks, in the person's terms. */
const askWhy: Record<AskReason, string> = {
  close: 'These entries fit about equally well, so I am not choosing one for you.',
  gentler: 'This message has gentler explanations than the destructive remedy, so check those first.',
  subject: 'This does not say it is about the platform, and the remedy acts on the platform.',
  applied: "The paste says this guide's remedy is already applied and the error persists; the guide has nothing further.",
};

/**
 * An `ask` answer: the plausible entries in order (the least destructive first), each with its evidence
 * and its own choices; no fix is proposed and no choice is the primary one. The person picks.
 */
function askView(candidates: readonly Candidate[], why: AskReason): View {
  const parts: Part[] = [para(t`🤔 ${askWhy[why]} I am not proposing a fix: pick the one that fits, or explain them first.`)];
  candidates.forEach((c, i) => {
    parts.push(lines([t`${i + 1}. ${strong(c.title)} (${code(c.id)}, guide ${c.ref}) — confidence ${pct(c.confidence)}`, ...c.evidence.map((e) => evidenceLine(e.line, e.text))]));
    parts.push({
      kind: 'choices',
      id: `match-ask-${c.id}`,
      choices: [{ label: `Plan fix ${c.id}`, action: matchActionIds.planFix, value: { e: c.id } satisfies PlanFixRef, command: `fix ${c.id}` }, explainChoice(c.id, `Explain ${c.id}`)],
    });
  });
  const summary = why === 'applied' ? t`The guide's remedy for ${candidates[0]!.id} appears to be applied already` : t`Could be ${candidates.map((c) => c.id).join(' or ')}: which one?`;
  return { summary, parts };
}
