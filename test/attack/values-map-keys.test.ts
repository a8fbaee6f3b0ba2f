import { describe, expect, it } from 'vitest';
import { viewText } from '../support/core-answers.js';

/** `/platform values check TEXT` as Slack shows its answer: the notification text. */
const valuesCheck = (text: string): Promise<string> => viewText(`values check ${text}`);

/**
 * A YAML key that is itself a map or a list (`{a: 1}: 2`, or braces nested in braces). Helm refuses such values
 * ("invalid map key"); values check read them, and turning each such key into text again at every level below it
 * took twice as long per level: `/platform values check` with 400 `{` and 400 `}` (800 characters) held the bot's
 * only thread for 98 s, so every other person's command and click went unanswered, and the answer was "No problems".
 */
describe('values whose keys are maps or lists', () => {
  it('refuses 400 braces nested in braces at once, saying Helm cannot read such a key', { timeout: 10_000 }, async () => {
    expect(await valuesCheck('{'.repeat(400) + '}'.repeat(400))).toBe(
      'This is not a values file Helm can read (line 1: a key is a map; the keys of values are text). Paste a values file, --set flags or a helm upgrade command.',
    );
  });

  it.each([
    ['configs:\n  {a: 1}: x', 'line 2: a key under configs is a map'],
    ['configs:\n  ? - a\n    - b\n  : x', 'line 2: a key under configs is a list'],
    ['[a, b]: 1', 'line 1: a key is a list'],
    ['a: &a {x: 1}\nconfigs:\n  *a : 2', 'line 3: a key under configs is a map'],
  ])('refuses a key that is a map or a list: %j', async (text, where) => {
    expect(await valuesCheck(text)).toBe(`This is not a values file Helm can read (${where}; the keys of values are text). Paste a values file, --set flags or a helm upgrade command.`);
  });

  it('still reads a plain key that is a number or a boolean', async () => {
    expect(await valuesCheck('configs:\n  1: x\n  true: y')).toBe('No problems found in this values file: it follows sections 2.2 and 2.3 of the guide.');
  });
});
