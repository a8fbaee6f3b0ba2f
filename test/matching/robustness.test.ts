import { describe, expect, it } from 'vitest';
import { match } from '../../src/matching/index.js';

/** Huge, binary and odd input: always an answer, never an exception. */

describe('huge and binary input', () => {
  it('a 10 MB log is matched without throwing, with the evidence line numbered in the whole log', () => {
    const noise = 'I0301 10:00:00.000000       1 controller.go:123] reconciled object in 3ms\n';
    const before = noise.repeat(Math.floor(5_100_000 / noise.length));
    const text = `${before}time="x" level=error msg="no token provided"\n${noise.repeat(Math.floor(5_100_000 / noise.length))}`;
    expect(text.length).toBeGreaterThan(10_000_000);
    const r = match(text);
    expect(r.verdict).toBe('match');
    if (r.verdict === 'match') expect(r.matches[0]!.evidence[0]!.line).toBe(before.split('\n').length);
  });

  it('evidence lines are capped and cut, so a huge log gives a small answer', () => {
    const r = match(`${'exit status 128 '.repeat(100)}\n`.repeat(1000));
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
        expect(r.verdict, `${line} at ${at}`).toBe('match');
        if (r.verdict === 'match') expect(r.matches[0]!.evidence[0]!.line).toBe(2);
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
