import { describe, expect, it } from 'vitest';
import { findJsonBreak, unambiguousRepair } from '../../src/remedies/steps/json-repair.js';

/**
 * A last-applied-configuration is a string to the API server, whose decoder never looks inside it: a rollout
 * may carry JSON nested as deep as its 256 KiB of annotations allow. Planning entry 25 on one nested 5,000 deep
 * (10 KB) ended in "Internal error in the worker (RangeError)", the parser recursing once per level.
 */
describe('where JSON nested thousands deep breaks', () => {
  const depth = 100_000;
  it('is found, as for a shallow document', () => {
    expect(findJsonBreak(`{"a":${'['.repeat(depth)}${']'.repeat(depth)},}`)).toMatchObject({ line: 1, column: 6 + 2 * depth, message: 'a trailing comma before "}"' });
    expect(findJsonBreak(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)).toBeUndefined();
    expect(findJsonBreak('['.repeat(depth))).toMatchObject({ offset: depth, message: 'the document ends where a value should be' });
  });

  it('is repaired when the repair is unambiguous', () => {
    expect(unambiguousRepair(`{"a":${'['.repeat(depth)}${']'.repeat(depth)},}`)).toMatchObject({ does: `remove the trailing comma at line 1, column ${6 + 2 * depth}` });
  });
});
