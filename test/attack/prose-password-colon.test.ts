import { describe, expect, it } from 'vitest';
import { redact } from '../../src/redact.js';
import { matchCli } from '../support/match-cli.js';

describe('a password told in a sentence with a colon ("my admin password is: …")', () => {
  it('is not echoed in the evidence of the entry it matches, as it was not without the colon', async () => {
    const { out } = await matchCli([], 'admin password not working, my admin password is: hunter2hunter\n');
    expect(out).toMatch(/^match: admin-password-reset/m);
    expect(out).not.toContain('hunter2hunter');
  });

  it('is redacted however it is spaced, and a sentence with no password in it stays', () => {
    expect(redact('my admin password is: hunter2hunter')).toBe('my admin password is: [redacted]');
    expect(redact('the password was:  "S3cret!"')).toBe('the password was:  "[redacted]"');
    expect(redact('the password is: wrong, says the login page')).toBe('the password is: wrong, says the login page');
  });
});
