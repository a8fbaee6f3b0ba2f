import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 180 answers, 149 right. Remedies acting on the platform or the apps it
 * deploys, for pastes that name the platform: 19 answers, 13 right; for pastes that do not: 20 answers, 1 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.624,
      right: 0.718
    },
    {
      score: 0.789,
      right: 0.744
    },
    {
      score: 0.964,
      right: 0.932
    }
  ],
  platform: [
    {
      score: 0.733,
      right: 0.591
    },
    {
      score: 0.95,
      right: 0.8
    }
  ],
  platformUnnamed: [
    {
      score: 0.782,
      right: 0.154
    },
    {
      score: 0.955,
      right: 0.154
    }
  ]
};
