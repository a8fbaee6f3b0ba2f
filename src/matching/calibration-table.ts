import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 156 answers, 124 right. Remedies acting on the platform or the apps it
 * deploys, for pastes that name the platform: 18 answers, 11 right; for pastes that do not: 19 answers, 1 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.723,
      right: 0.68
    },
    {
      score: 0.962,
      right: 0.913
    }
  ],
  platform: [
    {
      score: 0.722,
      right: 0.522
    },
    {
      score: 0.95,
      right: 0.8
    }
  ],
  platformUnnamed: [
    {
      score: 0.873,
      right: 0.16
    }
  ]
};
