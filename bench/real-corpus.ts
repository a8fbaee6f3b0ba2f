import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { match } from '../src/matching/index.js';

/** The real-paste corpus (test/fixtures/real) as the measurements read it: bench/real.ts, bench/calibrate.ts and its test. */
export interface RealPaste {
  readonly file: string;
  readonly expect: string | null;
  readonly split: 'tune' | 'heldout';
}

export const realDir = join(import.meta.dirname, '..', 'test', 'fixtures', 'real');
export const realPastes = JSON.parse(readFileSync(join(realDir, 'manifest.json'), 'utf8')) as RealPaste[];
export const readPaste = (p: RealPaste): string => readFileSync(join(realDir, p.file), 'utf8');

/** Bands of raw score the confidence table is fitted in; the threshold is 0.5, the most a score reaches is 1. */
export const calibrationBands = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/**
 * The tune part's answers that show an entry first (a `match` or an `ask`), with the raw score and whether
 * that entry is the paste's label: what the confidence table is fitted on. Never the held-out part.
 */
export function tuneAnswers(): { score: number; right: boolean }[] {
  return realPastes
    .filter((p) => p.split === 'tune')
    .flatMap((p) => {
      const r = match(readPaste(p), undefined, { calibration: [] });
      return r.verdict === 'no-match' ? [] : [{ score: r.matches[0]!.confidence, right: r.matches[0]!.id === p.expect }];
    });
}
