import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { match } from '../../src/matching/index.js';

/** The labelled dev set of pastes (test/fixtures/pastes), and the matcher's confusion summary over it. */

export interface Paste {
  readonly file: string;
  readonly expect: string | null;
  readonly kind: string;
  readonly note?: string;
}

export const pastesDir = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/pastes');
const manifestPath = join(pastesDir, 'manifest.json');

/** The manifest, or undefined while the set is not there yet. */
export function loadManifest(): Paste[] | undefined {
  return existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Paste[]) : undefined;
}

export interface Outcome {
  readonly paste: Paste;
  /** The first match's id, or null for an abstention. */
  readonly first: string | null;
}

export interface Summary {
  readonly outcomes: readonly Outcome[];
  readonly labelled: number;
  readonly rightFirst: number;
  readonly nulls: number;
  readonly abstained: number;
  readonly report: string;
}

export function evaluate(pastes: readonly Paste[]): Summary {
  const outcomes = pastes.map((paste): Outcome => {
    const r = match(readFileSync(join(pastesDir, paste.file), 'utf8'));
    return { paste, first: r.verdict === 'match' ? r.matches[0]!.id : null };
  });
  const rows = new Map<string, { total: number; right: number; wrong: string[]; abstained: number }>();
  for (const o of outcomes.filter((x) => x.paste.expect !== null)) {
    const row = rows.get(o.paste.expect!) ?? { total: 0, right: 0, wrong: [], abstained: 0 };
    row.total++;
    if (o.first === o.paste.expect) row.right++;
    else if (o.first === null) row.abstained++;
    else row.wrong.push(`${o.first} (${o.paste.file})`);
    rows.set(o.paste.expect!, row);
  }
  const nullOutcomes = outcomes.filter((x) => x.paste.expect === null);
  const proposed = nullOutcomes.filter((o) => o.first !== null);
  const labelled = outcomes.length - nullOutcomes.length;
  const rightFirst = outcomes.filter((o) => o.paste.expect !== null && o.first === o.paste.expect).length;
  const lines = [...rows.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, r]) => `${id.padEnd(30)} total ${r.total}  right ${r.right}  abstained ${r.abstained}${r.wrong.length ? `  wrong: ${r.wrong.join(', ')}` : ''}`);
  const report = [
    `labelled: ${rightFirst}/${labelled} right first (${pct(rightFirst, labelled)})`,
    ...lines,
    `nulls: ${nullOutcomes.length - proposed.length}/${nullOutcomes.length} abstained (${pct(nullOutcomes.length - proposed.length, nullOutcomes.length)})`,
    ...proposed.map((o) => `  proposed ${o.first} for ${o.paste.file}`),
  ].join('\n');
  return { outcomes, labelled, rightFirst, nulls: nullOutcomes.length, abstained: nullOutcomes.length - proposed.length, report };
}

function pct(a: number, b: number): string {
  return b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`;
}
