import { describe, expect, it } from 'vitest';
import { redact } from '../../src/redact.js';

/**
 * Found by an attacker's round: a value whose closing quote is in a later word (`echo 'x … '`) was joined to it by
 * removing the words between from the line's list of words, which moves every word after them: a line of many such
 * values took time growing with the square of its length (22 s for 1.6 MB, reachable by a paste's matched line), on
 * the bot's event loop. No time is asserted: the test's own timeout (vitest.config.ts) is far above a linear read.
 */
describe("a line of many quoted values closed in later words, fed to a login's standard input", () => {
  it('hides each, as before, and answers for three and a half megabytes', () => {
    const line = (n: number) => `${"echo 'x ".repeat(n)}| docker login --password-stdin`;
    expect(redact(line(3))).toBe("echo '[redacted]'x echo '[redacted]");
    expect(redact("echo 'a b' c 'd e f' | docker login --password-stdin")).toBe("echo '[redacted]' c 'd e f' | docker login --password-stdin");
    const shown = redact(line(450_000));
    expect(shown.startsWith("echo '[redacted]'x echo '[redacted]'x echo")).toBe(true);
    expect(shown).not.toMatch(/'x echo 'x/);
  });
});
