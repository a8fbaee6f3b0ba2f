import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 128 answers, 102 right. Remedies acting on the platform or the apps it
 * deploys: 44 answers, 12 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.55,
      right: 0.667
    },
    {
      score: 0.643,
      right: 0.692
    },
    {
      score: 0.788,
      right: 0.692
    },
    {
      score: 0.967,
      right: 0.907
    }
  ],
  platform: [
    {
      score: 0.743,
      right: 0.308
    },
    {
      score: 0.953,
      right: 0.333
    }
  ]
};
