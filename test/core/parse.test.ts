import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { answerLine, type CommandContext } from '../../src/core/index.js';
import { parseCommand } from '../../src/core/parse.js';
import type { View } from '../../src/core/view.js';
import { toText } from '../../src/views/plain.js';

/** The core's answer to a typed line that needs no queue (a usage answer), as a surface renders it. */
async function viewOf(line: string): Promise<View> {
  const config = loadConfig({ env: {}, overrides: { clusters: [{ name: 'prod', kube: { source: 'simulated' } }] } });
  const answer = await answerLine(line, { config, desk: {} as CommandContext['desk'], user: 'UALICE', plainText: true });
  if (answer.kind !== 'view') throw new Error(`expected a view, got ${answer.kind}`);
  return answer.view;
}

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

  it('refuses a setting of fix given twice with two values, naming both (found by a newcomer: the last one was planned, unseen)', async () => {
    expect(parseCommand('fix database-drop-blocked database=orders_old database=orders')).toEqual({
      kind: 'usage',
      quotes: true,
      message: '`database` is given twice (`orders_old`, then `orders`); give it once.',
    });
    // What the person reads, in the terminal as in Slack: both values, as typed.
    expect(toText(await viewOf('fix database-drop-blocked database=orders_old database=orders'))).toBe('database is given twice (orders_old, then orders); give it once.');
    // The same value twice says one thing.
    expect(parseCommand('fix database-drop-blocked prod database=orders_old database=orders_old')).toEqual({ kind: 'fix', entryId: 'database-drop-blocked', cluster: 'prod', params: { database: 'orders_old' } });
  });
});
