import { describe, expect, it } from 'vitest';
import { slackJson as slack } from '../support/core-answers.js';

/** What Slack would read as a mention, a broadcast, a channel or a link. */
const markup = /<[!@#]|<https?:|<mailto:/;

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
