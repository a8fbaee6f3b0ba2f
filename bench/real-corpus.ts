import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogue } from '../src/catalogue/index.js';
import { answerTable, fitCalibration, type Calibration } from '../src/matching/calibration.js';
import { readSubject } from '../src/matching/subject.js';

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

/** Where the first-contact answers are kept (bench/first-contact.ts writes them). */
export const firstContactFile = join(realDir, 'first-contact.json');

/**
 * A tune paste's first answer (a `match` or an `ask`) from the matcher as it stood before anything was tuned on
 * the paste's collection round (`commit`), with its raw score, and whether its first entry is the paste's label.
 */
export interface FirstContact {
  readonly file: string;
  readonly round: number;
  readonly commit: string;
  readonly entry: string;
  readonly score: number;
  readonly right: boolean;
}

/**
 * The answers the confidence tables are fitted on: first contact with each round's tune part. The matcher of today
 * has been tuned on every tune paste, so its own answers to them are right more often than its answers to a new
 * paste; a user's paste is always new, and so is a held-out one. Each answer reads the table of its kind (its entry's
 * remedy, and for a platform remedy whether the paste names the platform), as the matcher of today reads it. Never
 * the held-out part.
 */
export function firstContactAnswers(): { score: number; right: boolean; kind: keyof Calibration }[] {
  const byFile = new Map(realPastes.map((p) => [p.file, p]));
  const answers = JSON.parse(readFileSync(firstContactFile, 'utf8')) as FirstContact[];
  return answers.map((a) => {
    const paste = byFile.get(a.file);
    const entry = catalogue.find((e) => e.id === a.entry);
    if (!paste || paste.split !== 'tune' || !entry) throw new Error(`first-contact.json: ${a.file} (${a.entry}) is not a tune paste with a catalogue entry`);
    const text = readPaste(paste);
    return { score: a.score, right: a.right, kind: answerTable(entry, readSubject(text, []).platform) };
  });
}

/** The calibration fitted on first-contact answers: one table per kind of answer (src/matching/calibration.ts). */
export function fitOnFirstContact(answers = firstContactAnswers()): Calibration {
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
