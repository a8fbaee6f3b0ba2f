import type { Calibration } from './types.js';

/**
 * Written by `npx tsx bench/calibrate.ts --write` from first contact with the tune part of test/fixtures/real
 * (first-contact.json); do not edit by hand. Remedies for any product: 134 answers, 82 right.
 * Remedies acting on the platform or the apps it deploys, for pastes that name the platform: 15 answers, 1 right;
 * for pastes that do not: 36 answers, 0 right.
 */
export const calibrationTable: Calibration = {
  generic: [
    {
      score: 0.618,
      right: 0.484
    },
    {
      score: 0.792,
      right: 0.571
    },
    {
      score: 0.956,
      right: 0.744
    }
  ],
  platform: [
    {
      score: 0.677,
      right: 0.222
    },
    {
      score: 0.84,
      right: 0.25
    },
    {
      score: 0.94,
      right: 0.333
    }
  ],
  platformUnnamed: [
    {
      score: 0.811,
      right: 0.109
    }
  ]
};
