import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 90 answers, 70 right. Remedies acting on the platform or the apps it
 * deploys: 33 answers, 12 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.54,
      right: 0.25
    },
    {
      score: 0.735,
      right: 0.691
    },
    {
      score: 0.964,
      right: 0.878
    }
  ],
  platform: [
    {
      score: 0.74,
      right: 0.343
    },
    {
      score: 0.952,
      right: 0.625
    }
  ]
};
