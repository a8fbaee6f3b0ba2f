import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 66 answers, 57 right. Remedies acting on the platform or the apps it
 * deploys: 30 answers, 12 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.738,
      right: 0.763
    },
    {
      score: 0.966,
      right: 0.889
    }
  ],
  platform: [
    {
      score: 0.737,
      right: 0.375
    },
    {
      score: 0.952,
      right: 0.625
    }
  ]
};
