import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkValues, type CheckOptions, type ValuesProblem } from '../../src/values/check.js';

/** A realistic values file of test/values/fixtures. */
export function fixture(name: string): string {
  return readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
}

/** The problems of a paste; fails the test when the paste cannot be read at all. */
export function problemsOf(text: string, options: CheckOptions = {}): ValuesProblem[] {
  const r = checkValues(text, options);
  if (!r.ok) throw new Error(`unreadable paste: ${r.message}`);
  return [...r.problems];
}

/** The problem about one key, if any. */
export function problemAt(text: string, key: string, options: CheckOptions = {}): ValuesProblem | undefined {
  return problemsOf(text, options).find((p) => p.key === key);
}
