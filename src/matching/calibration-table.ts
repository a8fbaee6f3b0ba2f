import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 109 answers, 86 right. Remedies acting on the platform or the apps it
 * deploys: 40 answers, 12 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.547,
      right: 0.6
    },
    {
      score: 0.751,
      right: 0.701
    },
    {
      score: 0.966,
      right: 0.872
    }
  ],
  platform: [
    {
      score: 0.75,
      right: 0.293
    },
    {
      score: 0.95,
      right: 0.556
    }
  ]
};
