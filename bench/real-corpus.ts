import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fitCalibration, uncalibrated, type Calibration } from '../src/matching/calibration.js';
import { match } from '../src/matching/index.js';

/** The real-paste corpus (test/fixtures/real) as the measurements read it: bench/real.ts, bench/calibrate.ts and its test. */
export interface RealPaste {
  readonly file: string;
  readonly expect: string | null;
  readonly split: 'tune' | 'heldout';
  /** The thread, `owner/repo#N` or a web page's host and path. */
  readonly thread: string;
  /** The collection round (3 for the third, files 400–799); the first two carry none. */
  readonly round?: number;
}

export const realDir = join(import.meta.dirname, '..', 'test', 'fixtures', 'real');
export const realPastes = JSON.parse(readFileSync(join(realDir, 'manifest.json'), 'utf8')) as RealPaste[];
export const readPaste = (p: RealPaste): string => readFileSync(join(realDir, p.file), 'utf8');

/** Bands of raw score the confidence table is fitted in; the threshold is 0.5, the most a score reaches is 1. */
export const calibrationBands = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/**
 * The tune part's answers that show an entry first (a `match` or an `ask`), with the raw score, whether
 * that entry is the paste's label, and the table its answer reads (its kind of remedy, and for a platform
 * remedy whether the paste names the platform): what the confidence tables are fitted on. Never
 * the held-out part.
 */
export function tuneAnswers(): { score: number; right: boolean; kind: keyof Calibration }[] {
  return realPastes
    .filter((p) => p.split === 'tune')
    .flatMap((p) => {
      const r = match(readPaste(p), undefined, { calibration: uncalibrated });
      if (r.verdict === 'no-match') return [];
      const first = r.matches[0]!;
      return [{ score: first.confidence, right: first.id === p.expect, kind: r.table }];
    });
}

/** The calibration fitted on the tune part's answers: one table per kind of answer (src/matching/calibration.ts). */
export function fitOnTune(answers = tuneAnswers()): Calibration {
  return {
    generic: fitCalibration(answers.filter((a) => a.kind === 'generic'), calibrationBands),
    platform: fitCalibration(answers.filter((a) => a.kind === 'platform'), calibrationBands),
    platformUnnamed: fitCalibration(answers.filter((a) => a.kind === 'platformUnnamed'), calibrationBands),
  };
}

const entriesDir = join(import.meta.dirname, '..', 'src', 'catalogue', 'entries');
const catalogueSource = readdirSync(entriesDir).map((f) => readFileSync(join(entriesDir, f), 'utf8')).join('\n');

/** Whether the catalogue's source cites the thread (as owner/repo#N, repo#N or its address). */
export function citedByCatalogue(thread: string): boolean {
  const hash = thread.indexOf('#');
  if (hash < 0) return catalogueSource.includes(thread);
  const [owner, repo] = thread.slice(0, hash).split('/');
  const n = thread.slice(hash + 1);
  // Cited when the text occurs with no digit after it (#12 is not #123).
  const cites = (s: string): boolean => {
    for (let at = catalogueSource.indexOf(s); at >= 0; at = catalogueSource.indexOf(s, at + 1)) {
      const next = catalogueSource.charCodeAt(at + s.length);
      if (!(next >= 48 && next <= 57)) return true;
    }
    return false;
  };
  return cites(`${owner}/${repo}#${n}`) || cites(`${repo}#${n}`) || cites(`github.com/${owner}/${repo}/issues/${n}`) || cites(`github.com/${owner}/${repo}/pull/${n}`);
}
