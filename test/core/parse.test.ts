import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/core/parse.js';

describe('the /platform command line', () => {
  it('refuses words after a command that takes none, or more than it takes, as fix does (found by a newcomer: `list extra` was quietly read as `list`)', () => {
    expect(parseCommand('list extra')).toMatchObject({ kind: 'usage', message: expect.stringContaining('/platform list') });
    expect(parseCommand('explain build-logs now')).toMatchObject({ kind: 'usage', message: expect.stringContaining('/platform explain <id>') });
    expect(parseCommand('fix build-logs now please')).toMatchObject({ kind: 'usage' });
    // A flag, as on the command line, is named: the cluster is the word after the id.
    for (const typed of ['fix build-logs --cluster simulated', 'fix build-logs --cluster', 'fix build-logs simulated --dry-run']) {
      expect(parseCommand(typed)).toMatchObject({ kind: 'usage', message: expect.stringMatching(/^`fix` takes no flags \(`--(cluster|dry-run)`\): the cluster is the word after the id, as in `\/platform fix build-logs prod`/) });
    }
    expect(parseCommand('list')).toEqual({ kind: 'list' });
    expect(parseCommand('explain Build-Logs')).toEqual({ kind: 'explain', entryId: 'build-logs' });
    // Help stays lenient: "help fix" is someone asking for help.
    expect(parseCommand('help fix')).toEqual({ kind: 'help' });
  });
});
