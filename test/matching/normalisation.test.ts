import { describe, expect, it } from 'vitest';
import { match } from '../../src/matching/index.js';
import { entry } from './entries.js';

/** How text is normalised before matching, on an entry set of its own. */

const entries = [entry('probe', { errors: ['disk quota exceeded'], phrases: [] }), entry('other', { errors: ['quota'], phrases: [] })];

function ids(text: string): string[] {
  const r = match(text, entries);
  return r.verdict === 'match' ? r.matches.map((m) => m.id) : [];
}

describe('normalisation', () => {
  it('ignores case, runs of whitespace and tabs', () => {
    expect(ids('ERROR: Disk \t  QUOTA\texceeded')).toContain('probe');
  });

  it('reads through characters that show nothing: a zero-width space inside a word, a direction override around the error, none shown back', () => {
    const hidden = match('devtron: Failed to up\u200bdate data\u200dsource. Reload new version and try again');
    expect(hidden.verdict === 'match' && hidden.matches[0]!.id).toBe('datasource-update-failed');
    const turned = match('\u202eERROR:  database "orders" is being accessed by other users\u202c');
    expect(turned.verdict === 'match' && turned.matches[0]!.id).toBe('database-drop-blocked');
    expect(turned.verdict === 'match' && turned.matches[0]!.evidence[0]!.text).toBe('ERROR:  database "orders" is being accessed by other users');
  });

  it('skips ANSI colour codes inside the text', () => {
    expect(ids('disk \u001b[1;31mquota\u001b[0m exceeded')).toContain('probe');
  });

  it('reads JSON escapes: \\n and \\t are spaces, \\u0020 is a space', () => {
    expect(ids(String.raw`{"msg":"disk\nquota\u0020exceeded"}`)).toContain('probe');
  });

  it('matches whole words only', () => {
    expect(ids('diskquota exceeded')).toEqual([]);
    expect(ids('quotas')).toEqual([]);
    expect(ids('the quota, again')).toEqual(['other']);
  });

  it('never matches across lines', () => {
    expect(ids('disk quota\nexceeded')).toEqual(['other']);
  });

  it('where one text contains another on the same line, only the more specific one is evidence', () => {
    expect(ids('disk quota exceeded')).toEqual(['probe']);
  });

  it('scores every entry: a paste showing two is offered both, the better evidenced first', () => {
    const two = [entry('a', { errors: ['read-only file system', 'input/output error'], phrases: [] }), entry('b', { errors: ['disk quota exceeded'], phrases: [] })];
    const r = match('disk quota exceeded\nread-only file system\ninput/output error', two);
    expect(r.verdict === 'match' ? r.matches.map((m) => m.id) : []).toEqual(['a', 'b']);
  });

  it('compiles an entry set once and keeps it by identity', () => {
    const a = match('disk quota exceeded', entries);
    const b = match('disk quota exceeded', entries);
    expect(b).toEqual(a);
  });
});

describe('excludes and context', () => {
  const set = [entry('git', { errors: ['exit status 128'], phrases: [], context: ['git-sensor'], excludes: ['could not resolve host'] })];

  it('context raises confidence only alongside evidence', () => {
    const plain = match('exit status 128', set);
    const withContext = match('git-sensor: exit status 128', set);
    expect(plain.verdict === 'match' && withContext.verdict === 'match' && withContext.matches[0]!.confidence > plain.matches[0]!.confidence).toBe(true);
    expect(match('git-sensor restarted', set).verdict).toBe('no-match');
  });

  it('an exclude near the evidence vetoes it, but not one far away in a long log', () => {
    expect(match('Could not resolve host: github.com\nexit status 128', set).verdict).toBe('no-match');
    const far = ['Could not resolve host: github.com', ...Array.from({ length: 100 }, (_, i) => `line ${i}`), 'exit status 128'].join('\n');
    expect(match(far, set).verdict).toBe('match');
  });
});
