import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstContactAnswers, fitOnFirstContact } from './real-corpus.js';

/**
 * `npx tsx bench/calibrate.ts [--write]`: fits the map from the matcher's raw score to the probability it
 * shows (src/matching/calibration.ts), one table per kind of answer, on first contact with the TUNE part of the
 * real-paste corpus (test/fixtures/real/first-contact.json, bench/first-contact.ts): each round's tune pastes as
 * the matcher answered them before anything was tuned on them, as it answers a user's new paste. The held-out
 * part measures it (bench/real.ts) and is never read here. Every answer that shows an entry first (a `match` or an
 * `ask`) counts: right when that entry is the paste's label, wrong otherwise (uncovered pastes included).
 * `--write` writes src/matching/calibration-table.ts.
 */
const answers = firstContactAnswers();
const table = fitOnFirstContact(answers);
const count = (kind: string): string => {
  const of = answers.filter((a) => a.kind === kind);
  return `${of.length} answers, ${of.filter((a) => a.right).length} right`;
};
console.log(`first-contact answers to tune pastes showing an entry first: remedies for any product ${count('generic')}; remedies acting on the platform, the platform named ${count('platform')}, not named ${count('platformUnnamed')}`);
console.log('remedies for any product:');
console.table(table.generic);
console.log('remedies acting on the platform or the apps it deploys, for a paste that names the platform:');
console.table(table.platform);
console.log('the same remedies, for a paste that does not name the platform:');
console.table(table.platformUnnamed);
if (process.argv.includes('--write')) {
  const body = `import type { Calibration } from './types.js';

/**
 * Written by \`npx tsx bench/calibrate.ts --write\` from first contact with the tune part of test/fixtures/real
 * (first-contact.json); do not edit by hand. Remedies for any product: ${count('generic')}.
 * Remedies acting on the platform or the apps it deploys, for pastes that name the platform: ${count('platform')};
 * for pastes that do not: ${count('platformUnnamed')}.
 */
export const calibrationTable: Calibration = ${JSON.stringify(table, null, 2).replace(/"(\w+)":/g, '$1:')};
`;
  writeFileSync(join(import.meta.dirname, '..', 'src', 'matching', 'calibration-table.ts'), body);
  console.log('wrote src/matching/calibration-table.ts');
}
