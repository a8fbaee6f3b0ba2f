import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/commands/parse.js';

describe('parsing /platform commands', () => {
  it.each([
    ['', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['  LIST ', { kind: 'list' }],
    ['fix build-logs', { kind: 'fix', entryId: 'build-logs' }],
    ['fix Build-Logs prod-eu', { kind: 'fix', entryId: 'build-logs', cluster: 'prod-eu' }],
  ])('%j → %j', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected);
  });

  it('answers a fix without an id, or with extra words, with its usage', () => {
    expect(parseCommand('fix')).toMatchObject({ kind: 'usage', message: expect.stringContaining('/platform fix <id> [cluster]') });
    expect(parseCommand('fix a b c')).toMatchObject({ kind: 'usage', message: expect.stringContaining('Too many words') });
  });

  it('names an unknown command, cut to a sane length', () => {
    expect(parseCommand('frobnicate now')).toEqual({ kind: 'unknown', word: 'frobnicate' });
    expect((parseCommand('x'.repeat(5000)) as { word: string }).word).toHaveLength(40);
  });
});
