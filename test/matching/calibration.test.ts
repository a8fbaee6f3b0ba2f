import { describe, expect, it } from 'vitest';
import { fitCalibration, probability } from '../../src/matching/calibration.js';
import { calibrationTable } from '../../src/matching/calibration-table.js';
import { match } from '../../src/matching/index.js';
import { calibrationBands, tuneAnswers } from '../../bench/real-corpus.js';

const bands = calibrationBands;

describe('the confidence shown', () => {
  it('is the share of right answers per band of raw score, with one right and one wrong imagined, pooled to stay monotone', () => {
    const answers = [
      ...Array.from({ length: 8 }, (_, i) => ({ score: 0.55, right: i < 2 })), // 2 of 8 right → 3/10
      ...Array.from({ length: 8 }, (_, i) => ({ score: 0.65, right: i < 1 })), // 1 of 8 → 2/10: lower, pooled with the band below
      ...Array.from({ length: 3 }, () => ({ score: 0.95, right: true })), // 3 of 3 → 4/5, never certain
    ];
    expect(fitCalibration(answers, bands)).toEqual([
      { score: 0.6, right: 0.25 },
      { score: 0.95, right: 0.8 },
    ]);
  });

  it('is read from the table linearly between bands and flat beyond them', () => {
    const table = [
      { score: 0.6, right: 0.2 },
      { score: 0.8, right: 0.6 },
    ];
    expect(probability(0.5, table)).toBe(0.2);
    expect(probability(0.7, table)).toBeCloseTo(0.4, 10);
    expect(probability(0.99, table)).toBe(0.6);
    expect(probability(0.7, [])).toBe(0.7);
  });

  it('is what the tune part of the real-paste corpus gives today (the table is written by bench/calibrate.ts, never edited)', () => {
    expect(calibrationTable).toEqual(fitCalibration(tuneAnswers(), calibrationBands));
    // Monotone: a higher score is never shown as less likely.
    for (let i = 1; i < calibrationTable.length; i++) expect(calibrationTable[i]!.right).toBeGreaterThanOrEqual(calibrationTable[i - 1]!.right);
  });

  it('is shown for the catalogue through the table, without changing the order or the verdict', () => {
    const paste = 'Error: tls: handshake failure while fetching https://charts.bitnami.com/bitnami/index.yaml';
    const raw = match(paste, undefined, { calibration: [] });
    const shown = match(paste);
    expect(shown.verdict).toBe(raw.verdict);
    expect(shown.matches.map((m) => m.id)).toEqual(raw.matches.map((m) => m.id));
    expect(shown.matches.map((m) => m.confidence)).toEqual(raw.matches.map((m) => probability(m.confidence, calibrationTable)));
  });
});
