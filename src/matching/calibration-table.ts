import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 92 answers, 77 right. Remedies acting on the platform or the apps it
 * deploys: 28 answers, 12 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.56,
      right: 0.5
    },
    {
      score: 0.735,
      right: 0.745
    },
    {
      score: 0.969,
      right: 0.907
    }
  ],
  platform: [
    {
      score: 0.741,
      right: 0.4
    },
    {
      score: 0.952,
      right: 0.625
    }
  ]
};
