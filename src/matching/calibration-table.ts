import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from first contact with the tune part of test/fixtures/real
 * (first-contact.json); do not edit by hand. Remedies for any product: 150 answers, 93 right.
 * Remedies acting on the platform or the apps it deploys, for pastes that name the platform: 19 answers, 3 right;
 * for pastes that do not: 37 answers, 0 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.531,
      right: 0.444
    },
    {
      score: 0.65,
      right: 0.552
    },
    {
      score: 0.789,
      right: 0.579
    },
    {
      score: 0.958,
      right: 0.739
    }
  ],
  platform: [
    {
      score: 0.57,
      right: 0.2
    },
    {
      score: 0.723,
      right: 0.286
    },
    {
      score: 0.94,
      right: 0.333
    }
  ],
  platformUnnamed: [
    {
      score: 0.813,
      right: 0.106
    }
  ]
};
