import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { match } from '../../src/matching/index.js';

/**
 * The held-out pastes were written without looking at the matcher or its signatures, and nothing is
 * tuned on them: they measure how the matcher generalises. The figures are printed; the assertions
 * guard against a regression below the product's bars.
 */
const dir = join(import.meta.dirname, '..', 'fixtures', 'heldout');
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { file: string; expect: string | null }[];

describe('the held-out pastes', () => {
  it('are matched about as well as the development set', () => {
    let right = 0;
    let labelled = 0;
    let abstained = 0;
    let nulls = 0;
    const misses: string[] = [];
    for (const p of manifest) {
      const result = match(readFileSync(join(dir, p.file), 'utf8'));
      const top = result.verdict === 'match' ? result.matches[0]!.id : null;
      if (p.expect === null) {
        nulls += 1;
        if (top === null) abstained += 1;
        else misses.push(`${p.file}: expected nothing, got ${top}`);
      } else {
        labelled += 1;
        if (top === p.expect) right += 1;
        else misses.push(`${p.file}: expected ${p.expect}, got ${top ?? 'no match'}`);
      }
    }
    console.log(`held-out: ${right}/${labelled} right first (${((100 * right) / labelled).toFixed(1)}%), ${abstained}/${nulls} nulls abstained (${((100 * abstained) / nulls).toFixed(1)}%)\n${misses.join('\n')}`);
    expect(right / labelled).toBeGreaterThanOrEqual(0.9);
    expect(abstained / nulls).toBeGreaterThanOrEqual(0.9);
  });
});
