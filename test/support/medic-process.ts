import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * The arguments of `node` that start platform-medic with `args`, as `platform-medic …` does: the
 * product compiled once for this run (compiled-product.ts), from the checkout's directory.
 * `npm start` and `npm run sim` run the same sources under tsx instead; kubectl-everyday.test.ts
 * starts `sim` that way, so that path stays tried too.
 */
export function medicArgs(...args: string[]): string[] {
  return [join(inject('compiledProduct'), 'src/cli.js'), ...args];
}
