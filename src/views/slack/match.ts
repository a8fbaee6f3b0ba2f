import { findEntry } from '../../catalogue/index.js';
import type { MatchResult } from '../../matching/index.js';
import { redact } from '../../redact.js';
import { button, clip, context, esc, fitLines, section, type Block } from './kit.js';

/** Action ids of the buttons on a match answer. */
export const matchActionIds = { planFix: 'match-plan-fix', explain: 'match-explain' } as const;
/** Matches the explain buttons (one per entry in a block, so each carries its entry). */
export const explainActionPattern = /^match-explain-[a-z0-9-]+$/;

/** What a "Plan fix" button carries: the entry only; the fix is planned when it is clicked. */
export interface PlanFixRef {
  e: string;
}

const pct = (c: number) => `${Math.round(c * 100)}%`;

/** An evidence line as shown: redacted, escaped, cut, in code. */
function evidenceLine(line: number, text: string): string {
  // Code fences and backticks in a pasted line would break the code span around it.
  const shown = clip(redact(text).replace(/`{3}/g, '').replace(/`/g, "'").trim(), 280);
  return `line ${line}: \`${esc(shown)}\``;
}

/**
 * The answer to a paste: the top entry, its confidence and evidence, "Plan fix", and up to two
 * alternatives; or, on no match, a short "no catalogued remedy" and the nearest entries to explain.
 */
export function matchAnswer(result: MatchResult): { text: string; blocks: Block[] } {
  if (result.verdict === 'no-match') {
    const why = result.note === 'binary' ? 'This looks like binary data, not text I can read.' : 'No catalogued remedy matches this.';
    const blocks: Block[] = [section(`🤷 ${why} I am not proposing a fix.`)];
    if (result.nearest.length > 0) {
      blocks.push(context(`Nearest entries, to read about: ${result.nearest.map((id) => `\`${id}\``).join(', ')}`));
      blocks.push({ type: 'actions', block_id: 'match-nearest', elements: result.nearest.map((id) => button(`${matchActionIds.explain}-${id}`, `Explain ${id}`, { e: id })) });
    }
    return { text: why, blocks };
  }
  const [top, ...rest] = result.matches;
  const entry = findEntry(top!.id);
  const blocks: Block[] = [
    section(`🔎 *${esc(top!.title)}* (\`${top!.id}\`, guide ${top!.ref}) — confidence ${pct(top!.confidence)}`),
  ];
  if (entry) blocks.push(context(`Cause: ${esc(entry.cause)}`));
  blocks.push(section(fitLines(['*Evidence*', ...top!.evidence.map((e) => evidenceLine(e.line, e.text))])));
  blocks.push({
    type: 'actions',
    block_id: 'match-top',
    elements: [button(matchActionIds.planFix, 'Plan fix', { e: top!.id } satisfies PlanFixRef, 'primary'), button(`${matchActionIds.explain}-${top!.id}`, 'Explain', { e: top!.id })],
  });
  const alternatives = rest.slice(0, 2);
  if (alternatives.length > 0) {
    blocks.push(context(`Also possible: ${alternatives.map((a) => `\`${a.id}\` — ${esc(a.title)} (${pct(a.confidence)})`).join(' · ')}`));
    blocks.push({ type: 'actions', block_id: 'match-alternatives', elements: alternatives.map((a) => button(`${matchActionIds.explain}-${a.id}`, `Explain ${a.id}`, { e: a.id })) });
  }
  return { text: `Likely ${top!.id} (guide ${top!.ref}), confidence ${pct(top!.confidence)}`, blocks };
}
