import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/core/parse.js';

describe('parsing /platform commands', () => {
  it.each([
    ['', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['  LIST ', { kind: 'list' }],
    ['fix build-logs', { kind: 'fix', entryId: 'build-logs', params: {} }],
    ['fix Build-Logs prod-eu', { kind: 'fix', entryId: 'build-logs', cluster: 'prod-eu', params: {} }],
    ['fix upload-too-large size=200m', { kind: 'fix', entryId: 'upload-too-large', params: { size: '200m' } }],
    ['fix upload-too-large prod size=200m', { kind: 'fix', entryId: 'upload-too-large', cluster: 'prod', params: { size: '200m' } }],
    ['explain Build-Logs', { kind: 'explain', entryId: 'build-logs' }],
    ['match E1121 no token provided', { kind: 'match', text: 'E1121 no token provided' }],
    ['match   line one\nline two', { kind: 'match', text: 'line one\nline two' }],
  ])('%j → %j', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected);
  });

  it('answers a fix without an id, or with extra words, with its usage', () => {
    expect(parseCommand('fix')).toMatchObject({ kind: 'usage', message: expect.stringContaining('/platform fix <id> [cluster]') });
    expect(parseCommand('fix a b c')).toMatchObject({ kind: 'usage', message: expect.stringContaining('Too many words') });
    expect(parseCommand('explain')).toMatchObject({ kind: 'usage' });
    expect(parseCommand('match   ')).toMatchObject({ kind: 'usage' });
  });

  it('names an unknown command, cut to a sane length', () => {
    expect(parseCommand('frobnicate now')).toEqual({ kind: 'unknown', word: 'frobnicate' });
    expect((parseCommand('x'.repeat(5000)) as { word: string }).word).toHaveLength(40);
  });
});
