import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fitCalibration } from '../src/matching/calibration.js';
import { calibrationBands, tuneAnswers } from './real-corpus.js';

/**
 * `npx tsx bench/calibrate.ts [--write]`: fits the map from the matcher's raw score to the probability it
 * shows (src/matching/calibration.ts) on the TUNE part of the real-paste corpus only — the held-out part
 * measures it (bench/real.ts) and is never read here. Every answer that shows an entry first (a `match`
 * or an `ask`) counts: right when that entry is the paste's label, wrong otherwise (uncovered pastes
 * included). `--write` writes src/matching/calibration-table.ts.
 */
const answers = tuneAnswers();
const table = fitCalibration(answers, calibrationBands);
console.log(`${answers.length} tune answers showing an entry first, ${answers.filter((a) => a.right).length} right`);
console.table(table);
if (process.argv.includes('--write')) {
  const body = `import type { CalibrationPoint } from './types.js';

/**
 * Written by \`npx tsx bench/calibrate.ts --write\` from the tune part of test/fixtures/real (${answers.length}
 * answers showing an entry first, ${answers.filter((a) => a.right).length} right); do not edit by hand.
 */
export const calibrationTable: readonly CalibrationPoint[] = ${JSON.stringify(table, null, 2).replace(/"(\w+)":/g, '$1:')};
`;
  writeFileSync(join(import.meta.dirname, '..', 'src', 'matching', 'calibration-table.ts'), body);
  console.log('wrote src/matching/calibration-table.ts');
}
