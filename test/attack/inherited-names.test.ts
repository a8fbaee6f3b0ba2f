import { describe, expect, it } from 'vitest';
import { answerOf as said } from '../support/core-answers.js';

/**
 * Names a person types that every JavaScript object already has (`__proto__`, `constructor`, `toString`). A fix's
 * `__proto__=1` went into a plain object, where that assignment does nothing: the setting was dropped in silence and
 * the fix went ahead as if it had not been typed, where any other unknown setting is refused. A `values upgrade`
 * flag named `constructor` or `toString` was found among the flags and read as one, so the person was told to
 * choose a provider instead of that the flag is unknown.
 */
describe('names typed that every object already has', () => {
  it.each([
    ['fix build-logs __proto__=1', '`build-logs` takes no parameters (got `__proto__`).'],
    ['fix database-drop-blocked __proto__=x database=abc', '`__proto__` is not a parameter of `database-drop-blocked` (it takes `database`).'],
  ])('refuses a fix setting named as one, as any unknown setting: %s', async (line, text) => {
    expect(await said(line)).toEqual({ kind: 'view', text });
  });

  it.each([
    ['values upgrade constructor 1 --provider S3', 'constructor'],
    ['values upgrade --provider S3 toString 1', 'toString'],
    ['values upgrade __proto__ 1', '__proto__'],
  ])('says a values upgrade word named as one is no flag, never reading it as one: %s', async (line, word) => {
    // A word without dashes is told as no flag at all (values upgrade takes flags only), before any flag is looked up.
    expect((await said(line)).text).toMatch(new RegExp(`^unexpected argument ${word} \\(values upgrade takes flags only, such as --provider S3\\)`));
  });
});
