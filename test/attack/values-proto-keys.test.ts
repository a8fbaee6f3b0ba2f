import { afterEach, describe, expect, it } from 'vitest';
import { viewText } from '../support/core-answers.js';

/** `/platform values check TEXT` as Slack shows its answer: the notification text. */
const valuesCheck = (text: string): Promise<string> => viewText(`values check ${text}`);

const planted = ['polluted', 'fromJson', 'fromFile'] as const;
const proto = Object.prototype as Record<string, unknown>;
afterEach(() => {
  for (const k of planted) delete proto[k];
});

/**
 * A key named `__proto__` in pasted values. Helm reads it as any other key; values check built its tree of plain
 * objects with `tree[key] = …`, so `--set __proto__.polluted=1` wrote `polluted` onto Object.prototype of the bot's
 * process: every object of every later request then had it (whatever read a missing property anywhere read 1), and a
 * values file's `__proto__:` did the same when merged. Anyone who can type `/platform` could do it. Keys named
 * `constructor`, `toString` or `__proto__` also failed the check ("s.replace is not a function", an internal error).
 */
describe('values whose keys are __proto__', () => {
  it.each([
    ['--set __proto__.polluted=1', 'polluted'],
    ['--set-json \'__proto__={"fromJson":1}\'', 'fromJson'],
    ["cat > extra.yaml <<'EOF'\n__proto__:\n  fromFile: 1\nEOF\nhelm upgrade devtron devtron/devtron-operator -f extra.yaml", 'fromFile'],
  ])('never reach Object.prototype: %s', async (line, key) => {
    await valuesCheck(line);
    expect(proto[key]).toBeUndefined();
    expect(({} as Record<string, unknown>)[key]).toBeUndefined();
  });

  it('are read as the plain keys they are to helm, and the rest of the values is checked', async () => {
    expect(await valuesCheck('--set __proto__.polluted=1 --set installer.modules=cicd')).toBe('1 problem in these --set flags');
    expect(proto.polluted).toBeUndefined();
  });

  it.each([
    // Keys named as what every object inherits were looked up in a table of the guide's placeholders and found there.
    ['--set constructor=1 --set installer.modules=cicd', '1 problem in these --set flags'],
    ['--set-json \'configs={"__proto__":{"a":1}}\' --set installer.modules=cicd', '1 problem in these --set flags'],
    ['configs:\n  toString: x\n  __proto__:\n    a: 1', 'No problems found in this values file: it follows sections 2.2 and 2.3 of the guide.'],
  ])('answers values with keys named like what objects inherit, rather than failing: %j', async (line, said) => {
    expect(await valuesCheck(line)).toBe(said);
  });
});
