import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 131 answers, 106 right. Remedies acting on the platform or the apps it
 * deploys: 38 answers, 12 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.725,
      right: 0.695
    },
    {
      score: 0.964,
      right: 0.915
    }
  ],
  platform: [
    {
      score: 0.746,
      right: 0.333
    },
    {
      score: 0.957,
      right: 0.417
    }
  ]
};
