import { describe, expect, it } from 'vitest';
import { match } from '../../src/matching/index.js';

/** Huge, binary and odd input: always an answer, never an exception. */

describe('huge and binary input', () => {
  it('a 10 MB log is matched without throwing, with the evidence line numbered in the whole log', () => {
    const noise = 'I0301 10:00:00.000000       1 controller.go:123] reconciled object in 3ms\n';
    const before = noise.repeat(Math.floor(5_100_000 / noise.length));
    const text = `${before}time="x" level=error msg="no token provided"\n${noise.repeat(Math.floor(5_100_000 / noise.length))}`;
    expect(text.length).toBeGreaterThan(10_000_000);
    // A bare SSO error (no platform in sight) is asked about: what counts here is that it is found, on its line.
    const r = match(text);
    expect([r.verdict, r.matches[0]?.id]).toEqual(['ask', 'sso-login']);
    expect(r.matches[0]!.evidence[0]!.line).toBe(before.split('\n').length);
  });

  it('evidence lines are capped and cut, so a huge log gives a small answer', () => {
    const r = match(`${'git-sensor exit status 128 '.repeat(100)}\n`.repeat(1000));
    expect(r.verdict).toBe('match');
    if (r.verdict !== 'match') return;
    expect(r.matches[0]!.evidence.length).toBeLessThanOrEqual(5);
    for (const e of r.matches[0]!.evidence) expect(e.text.length).toBeLessThanOrEqual(300);
  });

  it('text with NUL bytes is binary: no match, with a note', () => {
    expect(match('PK\u0003\u0004\u0000\u0000exit status 128')).toEqual({ verdict: 'no-match', matches: [], nearest: [], note: 'binary' });
  });

  it('an error line is found wherever it falls in a long paste, escapes and colour codes included', () => {
    // Long texts are read a block of 65,536 characters at a time: a line across a block's end is read whole.
    const lines = ['time="x" level=error msg="no token provided"', '{"level":"error","msg":"no\\u0020token\\u0020provided"}', '\u001b[31mno token provided\u001b[0m'];
    for (const line of lines) {
      for (let at = 65_536 - line.length; at <= 65_536; at++) {
        const r = match(`${'x'.repeat(at - 1)}\n${line}\n`);
        expect(r.matches[0]?.id, `${line} at ${at}`).toBe('sso-login');
        expect(r.matches[0]!.evidence[0]!.line).toBe(2);
      }
    }
    // Nor does a signature run on into the next word there ("provided" ends words, not "providedness").
    const runOn = 'time="x" level=error msg="no token providedness"';
    for (let at = 65_536 - runOn.length; at <= 65_536; at++) expect(match(`${'x'.repeat(at - 1)}\n${runOn}\n`).verdict, `at ${at}`).toBe('no-match');
  });

  it('mostly non-printable text is binary', () => {
    const junk = Array.from({ length: 4000 }, (_, i) => String.fromCharCode(1 + (i % 8))).join('');
    expect(match(junk)).toMatchObject({ verdict: 'no-match', note: 'binary' });
  });

  it('odd text does not throw: lone surrogates, a trailing backslash, a cut escape, an open colour code', () => {
    for (const text of ['\ud800 exit status 128', 'no token provided\\', 'abc \\u00', '\u001b[31', '\u001b', '\\\\\\\\n'.repeat(1000)]) {
      expect(() => match(text)).not.toThrow();
    }
  });
});

describe('what the evidence shows back', () => {
  const esc = '\u001b';
  const evidence = (text: string): string => {
    const r = match(text);
    return r.verdict === 'no-match' ? '' : r.matches[0]!.evidence[0]!.text;
  };

  it("carries no terminal command: a pasted clipboard write or hidden link is gone with its content, so a person's terminal does not act on it", () => {
    const shown = evidence(`Failed to update datasource. Reload new version and try again ${esc}]52;c;ZWNobyBwd25lZA==${esc}\\ ${esc}]8;;https://evil.example${esc}\\click${esc}]8;;${esc}\\`);
    expect(shown).toContain('Failed to update datasource');
    expect(shown).not.toContain(esc);
    expect(shown).not.toContain('ZWNobyBwd25lZA');
    expect(shown).not.toContain('evil.example');
  });

  it('shows the words that matched after thousands of colour codes, and no carriage return', () => {
    expect(evidence(`${`${esc}[31m`.repeat(8000)}devtron: Failed to update datasource. Reload new version and try again`)).toBe('devtron: Failed to update datasource. Reload new version and try again');
    expect(evidence('progress 10%\rprogress 50%\rdevtron: Failed to update datasource. Reload new version and try again')).not.toContain('\r');
  });

  it('on a long line, shows the part around what matched rather than the line start', () => {
    const shown = evidence(`${'x '.repeat(20000)}devtron chart upload through the ingress: 413 Request Entity Too Large${' y'.repeat(20000)}`);
    expect(shown).toContain('413 Request Entity Too Large');
    expect(shown.length).toBeLessThanOrEqual(300);
  });

  it('reads the subject of a long paste from its start too: the platform named on the first line of a 10 KB describe', () => {
    const events = 'Normal  Pulled  kubelet  Container image "quay.io/acme/web:1.4" already present on machine\n'.repeat(100);
    const r = match(`devtron app deploy, namespace devtroncd, the upload through our ingress:\n${events}<head><title>413 Request Entity Too Large</title></head>`);
    expect(r.verdict === 'match' && r.matches[0]!.id).toBe('upload-too-large');
  });
});

describe('secrets in a paste', () => {
  it('never come back in the evidence, on any surface that shows it (the CLI prints it as the matcher gives it)', () => {
    const r = match('$ PGPASSWORD=Pg5ecretPw psql -h postgresql -U postgres -c "DROP DATABASE orders" → ERROR:  database "orders" is being accessed by other users');
    const shown = JSON.stringify(r);
    expect(r.verdict).toBe('match');
    expect(shown).not.toContain('Pg5ecretPw');
  });
});
