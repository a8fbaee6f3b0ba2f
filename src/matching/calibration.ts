import type { CatalogueEntry } from '../catalogue/model.js';
import type { Calibration, CalibrationPoint } from './types.js';

/**
 * The confidence a person sees is a probability that the entry shown first is the right one, not the
 * matcher's raw score. The raw score ranks entries and decides the verdict; this maps it, through a
 * table fitted on first contact with the tuning part of the real-paste corpus (bench/calibrate.ts: each
 * round's pastes as the matcher answered them before it was tuned on them, as it answers a new paste; never
 * the held-out part), to how often answers at that score were right, one table per kind of answer
 * (answerTable). Each map is monotone. The tables are calibration-table.ts, handed in by the matcher (index.ts).
 */
export type { Calibration, CalibrationPoint };

/** The raw scores, shown as they are (for measuring and fitting). */
export const uncalibrated: Calibration = { generic: [], platform: [], platformUnnamed: [] };

/** The kind of an entry's remedy: for any product, or acting on the platform or the apps it deploys. */
export function remedyKind(entry: CatalogueEntry): 'generic' | 'platform' {
  return entry.appliesTo === 'any-product' ? 'generic' : 'platform';
}

/** Which table of the calibration an answer is read from (types.ts, Calibration): its first entry's kind, and for a platform remedy whether the paste names the platform. */
export function answerTable(entry: CatalogueEntry, platformNamed: boolean): keyof Calibration {
  return remedyKind(entry) === 'generic' ? 'generic' : platformNamed ? 'platform' : 'platformUnnamed';
}

/** The probability for a raw score: linear between the fitted bands, flat beyond the outermost. */
export function probability(score: number, table: readonly CalibrationPoint[]): number {
  if (table.length === 0 || !Number.isFinite(score)) return score;
  const first = table[0]!;
  const last = table[table.length - 1]!;
  if (score <= first.score) return first.right;
  if (score >= last.score) return last.right;
  for (let i = 1; i < table.length; i++) {
    const b = table[i]!;
    if (score > b.score) continue;
    const a = table[i - 1]!;
    return a.right + ((b.right - a.right) * (score - a.score)) / (b.score - a.score);
  }
  return last.right;
}

/**
 * Fits the table: answers grouped into bands of raw score, each band's share of right answers with one
 * right and one wrong imagined (so a band of three is not called certain), then pooled where a higher
 * band came out less often right than a lower one, so the map stays monotone.
 */
export function fitCalibration(answers: readonly { score: number; right: boolean }[], bands: readonly number[]): CalibrationPoint[] {
  const groups: { score: number; n: number; right: number }[] = [];
  for (let i = 0; i + 1 < bands.length; i++) {
    const lo = bands[i]!;
    const hi = bands[i + 1]!;
    const inBand = answers.filter((a) => a.score >= lo && (a.score < hi || (i + 2 === bands.length && a.score <= hi)));
    if (inBand.length === 0) continue;
    groups.push({ score: inBand.reduce((s, a) => s + a.score, 0) / inBand.length, n: inBand.length + 2, right: inBand.filter((a) => a.right).length + 1 });
  }
  // Pool adjacent bands that break monotonicity.
  const pooled: { score: number; n: number; right: number }[] = [];
  for (const g of groups) {
    pooled.push({ ...g });
    while (pooled.length >= 2 && pooled.at(-1)!.right / pooled.at(-1)!.n < pooled.at(-2)!.right / pooled.at(-2)!.n) {
      const b = pooled.pop()!;
      const a = pooled.pop()!;
      pooled.push({ score: (a.score * a.n + b.score * b.n) / (a.n + b.n), n: a.n + b.n, right: a.right + b.right });
    }
  }
  return pooled.map((g) => ({ score: Math.round(g.score * 1000) / 1000, right: Math.round((g.right / g.n) * 1000) / 1000 }));
}
