import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from the tune part of test/fixtures/real; do not edit by
 * hand. Remedies for any product: 111 answers, 91 right. Remedies acting on the platform or the apps it
 * deploys: 36 answers, 12 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.547,
      right: 0.6
    },
    {
      score: 0.745,
      right: 0.721
    },
    {
      score: 0.969,
      right: 0.917
    }
  ],
  platform: [
    {
      score: 0.748,
      right: 0.324
    },
    {
      score: 0.95,
      right: 0.556
    }
  ]
};
