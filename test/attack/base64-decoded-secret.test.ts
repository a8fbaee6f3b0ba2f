import { describe, expect, it } from 'vitest';
import { redact } from '../../src/redact.js';
import { matchCli } from '../support/match-cli.js';

const matchOut = async (input: string): Promise<string> => (await matchCli([], input)).out;

// The admin password, base64-encoded as the platform Secret holds it: decoding it is the guide's own way to read it (5.1).
const encoded = Buffer.from('hunter2hunter').toString('base64');

describe('a paste that decodes a Secret value with base64 -d', () => {
  it('never shows the encoded value in the evidence it echoes', async () => {
    for (const paste of [
      `'base64' is not recognized as an internal or external command: echo ${encoded} | base64 -d for ADMIN_PASSWORD`,
      `reset admin password: ADMIN_PASSWORD=$(echo ${encoded} | base64 -d) gives invalid username or password`,
    ]) {
      const out = await matchOut(`${paste}\n`);
      expect(out).toMatch(/^match: admin-password/m);
      expect(out, paste).not.toContain(encoded);
    }
  });

  it('keeps what is no value: a variable, and the flags of echo and base64', () => {
    expect(redact(`echo -n ${encoded} | base64 --decode`)).toBe('echo -n [redacted] | base64 --decode');
    expect(redact(`printf '${encoded}' | base64 -D`)).toBe("printf '[redacted]' | base64 -D");
    expect(redact('echo $ADMIN_PASSWORD | base64 -d')).toBe('echo $ADMIN_PASSWORD | base64 -d');
    expect(redact('echo hello world | wc -c')).toBe('echo hello world | wc -c');
  });
});
