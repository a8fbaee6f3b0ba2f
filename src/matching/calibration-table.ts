import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 94 answers, 75 right. Remedies acting on the platform or the apps it
 * deploys: 31 answers, 12 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.56,
      right: 0.333
    },
    {
      score: 0.734,
      right: 0.707
    },
    {
      score: 0.965,
      right: 0.884
    }
  ],
  platform: [
    {
      score: 0.734,
      right: 0.364
    },
    {
      score: 0.952,
      right: 0.625
    }
  ]
};
