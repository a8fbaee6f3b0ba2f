import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { answerLine, type CommandContext } from '../../src/core/index.js';
import { slackMessage } from '../../src/views/slack/answer.js';

const config = loadConfig({ env: {}, overrides: { clusters: [{ name: 'prod-eu', kube: { source: 'simulated' } }], defaultCluster: 'prod-eu' } });
const ctx: CommandContext = { config, desk: {} as CommandContext['desk'], user: 'UALICE' };
/** What Slack would read as a mention, a broadcast, a channel or a link. */
const markup = /<[!@#]|<https?:|<mailto:/;

/** The answer as Slack gets it: its notification text and blocks. */
async function slack(line: string): Promise<string> {
  const answer = await answerLine(line, ctx);
  if (answer.kind !== 'view') throw new Error(`expected a view, got ${answer.kind}`);
  return JSON.stringify(slackMessage(answer.view));
}

describe('words a person typed, quoted back in a usage answer', () => {
  it.each([
    // Slack sends a typed @channel as <!channel>, and a typed link as <http://…|…>: the usage quotes them back.
    'fix <!channel> <@U0VICTIM> <http://evil.example|click>',
    'fix <!here> prod-eu extra',
    'fix <!subteam^S0EVIL> --cluster prod-eu',
    'fix build-logs --<!channel>',
    // A mistyped command is named with the line it meant, the person's words in it.
    'fx <!channel> <http://evil.example|click>',
    // A backtick in a setting's name or value closed the code span it was quoted in, and a mention after it was made one.
    'fix build-logs a`<@U0VICTIM>`b=x',
    'fix dashboards-missing metricsStore=a`<@U0VICTIM>`b',
    'fix dashboards-missing metricsStore=http://<@U0VICTIM>',
    'fix database-drop-blocked database=`<@U0VICTIM>`',
    'fix build-logs --x`<@U0VICTIM>`',
  ])('never become a mention or a link: %s', async (line) => {
    const answer = await slack(line);
    expect(answer).not.toMatch(markup);
    expect(answer).toContain('&lt;');
  });
});

describe('a value a person typed, quoted back when it is refused', () => {
  it.each([
    ['fix database-drop-blocked database=postgres://admin:Pg5ecretPw@db/x', 'Pg5ecretPw'],
    ['fix database-drop-blocked database=x;password=Pg5ecretPw', 'Pg5ecretPw'],
    ['fix database-drop-blocked token=ghp_abcdefghijklmnopqrstuvwxyz0123456789AB', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789AB'],
    ['fix database-drop-blocked password=hunter2hunter2', 'hunter2hunter2'],
  ])('is shown redacted, never the secret itself: %s', async (line, secret) => {
    const answer = await slack(line);
    expect(answer).not.toContain(secret);
    expect(answer).toContain('[redacted]');
  });
});
