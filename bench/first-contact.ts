import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { firstContactFile, readPaste, realPastes, type FirstContact } from './real-corpus.js';

/**
 * `npx tsx bench/first-contact.ts --round N --tree DIR --commit SHA`: records, for each tune paste of collection
 * round N, the first answer (a `match` or an `ask`) of the matcher in DIR — a checkout of SHA, the tree as it
 * stood before anything was tuned on round N — with its raw score and whether its first entry is the paste's
 * label, in test/fixtures/real/first-contact.json (the round's rows replaced). These are answers to pastes the
 * matcher was never tuned on, as users' new pastes are: the confidence shown is fitted on them (calibrate.ts).
 * Make DIR with `git worktree add DIR SHA` and link node_modules into it.
 */
const arg = (name: string): string => {
  const at = process.argv.indexOf(name);
  const value = at < 0 ? undefined : process.argv[at + 1];
  if (value === undefined) throw new Error(`usage: npx tsx bench/first-contact.ts --round N --tree DIR --commit SHA (missing ${name})`);
  return value;
};
const round = Number(arg('--round'));
const tree = resolve(arg('--tree'));
const commit = arg('--commit');
const head = readFileSync(join(tree, '.git'), 'utf8');
if (!/^gitdir: /.test(head)) throw new Error(`${tree} is not a git worktree`);

const { match } = (await import(join(tree, 'src/matching/index.ts'))) as { match: (text: string, entries?: unknown, options?: unknown) => { verdict: string; matches: { id: string; confidence: number }[] } };
// The tree's raw scores: its own "uncalibrated", or the one table of the trees that had a single one.
const { uncalibrated = [] } = (await import(join(tree, 'src/matching/calibration.ts'))) as { uncalibrated?: unknown };
const rows: FirstContact[] = [];
for (const p of realPastes.filter((q) => q.split === 'tune' && q.round === round)) {
  const r = match(readPaste(p), undefined, { calibration: uncalibrated });
  if (r.verdict === 'no-match') continue;
  rows.push({ file: p.file, round, commit, entry: r.matches[0]!.id, score: Math.round(r.matches[0]!.confidence * 10000) / 10000, right: r.matches[0]!.id === p.expect });
}
const kept = (JSON.parse(readFileSync(firstContactFile, 'utf8')) as FirstContact[]).filter((f) => f.round !== round);
writeFileSync(firstContactFile, `${JSON.stringify([...kept, ...rows].sort((a, b) => a.round - b.round || a.file.localeCompare(b.file, 'en', { numeric: true })), null, 1)}\n`);
console.log(`round ${round} at ${commit}: ${rows.length} answers, ${rows.filter((r) => r.right).length} right`);
