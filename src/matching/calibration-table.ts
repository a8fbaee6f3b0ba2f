import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 179 answers, 147 right. Remedies acting on the platform or the apps it
 * deploys, for pastes that name the platform: 20 answers, 13 right; for pastes that do not: 20 answers, 1 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.624,
      right: 0.718
    },
    {
      score: 0.792,
      right: 0.737
    },
    {
      score: 0.963,
      right: 0.919
    }
  ],
  platform: [
    {
      score: 0.727,
      right: 0.565
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
