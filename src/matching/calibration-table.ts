import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 129 answers, 106 right. Remedies acting on the platform or the apps it
 * deploys, for pastes that name the platform: 18 answers, 11 right; for pastes that do not: 15 answers, 1 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.725,
      right: 0.704
    },
    {
      score: 0.964,
      right: 0.931
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
      score: 0.786,
      right: 0.167
    },
    {
      score: 0.96,
      right: 0.222
    }
  ]
};
