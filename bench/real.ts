import { match } from '../src/matching/index.js';
import { citedByCatalogue, readPaste, realPastes } from './real-corpus.js';

/**
 * `npx tsx bench/real.ts [split…]`: the matcher on the real-paste corpus (test/fixtures/real), aggregates
 * only, per split. `ask` is never counted as right; a wrong fix is a `match` naming a wrong entry or any
 * `match` on an uncovered paste. `--list tune` prints the tune pastes that are not right (never heldout).
 */
const args = process.argv.slice(2);
const list = args.includes('--list');
const splits = args.filter((a) => a !== '--list');

// `heldout-uncited`: the held-out pastes whose thread the catalogue's sources never cite (an entry's text
// learnt from a held-out thread would make its paste easy; see bench/RESULTS.md).
// `tune-r3` / `heldout-r3` (and -r4): a collection round's pastes of each part (measured before anything was tuned on them).
const select = (split: string): typeof realPastes => {
  if (split === 'heldout-uncited') return realPastes.filter((p) => p.split === 'heldout' && !citedByCatalogue(p.thread));
  const round = /^(tune|heldout)-r(\d+)$/.exec(split);
  if (round) return realPastes.filter((p) => p.split === round[1] && p.round === Number(round[2]));
  return realPastes.filter((p) => p.split === split);
};
for (const split of splits.length > 0 ? splits : ['tune', 'heldout', 'heldout-uncited', 'heldout-r3']) {
  const pastes = select(split);
  let covered = 0, right = 0, askedCovered = 0, uncovered = 0, abstained = 0, askedUncovered = 0, wrong = 0;
  // Reliability: the confidence shown with the first entry, in bands of ten points, and how often that entry was right.
  const reliability = new Map<string, { shown: number; right: number }>();
  for (const p of pastes) {
    const r = match(readPaste(p));
    const top = r.verdict === 'match' ? r.matches[0]!.id : null;
    const ok = p.expect === null ? r.verdict === 'no-match' : top === p.expect;
    if (r.verdict !== 'no-match') {
      // Per table too (each kind of answer has its own, src/matching/calibration.ts) and for all answers.
      const band = Math.min(9, Math.floor(r.matches[0]!.confidence * 10));
      for (const key of [`all ${band}`, `${r.table} ${band}`]) {
        const b = reliability.get(key) ?? { shown: 0, right: 0 };
        b.shown++;
        if (r.matches[0]!.id === p.expect) b.right++;
        reliability.set(key, b);
      }
    }
    if (p.expect === null) {
      uncovered++;
      if (r.verdict === 'no-match') abstained++;
      else if (r.verdict === 'ask') askedUncovered++;
      else wrong++;
    } else {
      covered++;
      if (top === p.expect) right++;
      else if (r.verdict === 'ask') askedCovered++;
      else if (top !== null) wrong++;
    }
    if (list && split.startsWith('tune') && !ok) console.log(`  ${p.file}: expected ${p.expect ?? 'nothing'}, got ${r.verdict} ${r.matches.map((m) => `${m.id}:${m.confidence}`).join(' ')}`);
  }
  const f = (a: number, b: number): string => (a / b).toFixed(2);
  console.log(
    `${split}: ${pastes.length} pastes; covered ${right}/${covered} right first (${f(right, covered)}), ${askedCovered} ask; ` +
      `uncovered ${abstained}/${uncovered} no-match (${f(abstained, uncovered)}), ${askedUncovered} ask, ${uncovered - abstained - askedUncovered} match; ` +
      `wrong fixes ${wrong} (${((100 * wrong) / pastes.length).toFixed(0)}% of all)`,
  );
  console.log(`| ${split}: remedies | confidence shown | answers | first entry right | share right |\n|---|---|---|---|---|`);
  const order = ['all', 'generic', 'platform', 'platformUnnamed'];
  const sorted = [...reliability].map(([key, b]) => ({ kind: key.split(' ')[0]!, band: Number(key.split(' ')[1]), ...b }));
  sorted.sort((a, c) => order.indexOf(a.kind) - order.indexOf(c.kind) || a.band - c.band);
  for (const b of sorted) {
    console.log(`| ${b.kind} | ${b.band * 10}–${b.band * 10 + 10}% | ${b.shown} | ${b.right} | ${(b.right / b.shown).toFixed(2)} |`);
  }
}
