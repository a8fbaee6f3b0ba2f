import { LogLevel, webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { unreachable, verifySlackToken } from '../../src/slack/token-checks.js';
import { freePort } from '../support/own-redis.js';

/** What verifySlackToken failed with. */
async function failureOf(call: Promise<unknown>): Promise<Error> {
  return call.then(
    () => {
      throw new Error('the check did not fail');
    },
    (err: Error) => err,
  );
}

describe('the start-up check of a token, when Slack cannot be reached', () => {
  it('with SLACK_API_URL set, names the address and the socket\'s code, and says to check SLACK_API_URL and the network', async () => {
    const apiUrl = `http://127.0.0.1:${await freePort()}/api/`;
    const err = await failureOf(verifySlackToken('xoxb-1-secretpart', apiUrl));
    expect(err.message).toBe(
      `Cannot reach Slack's Web API at ${apiUrl} to check the bot token (ECONNREFUSED): check SLACK_API_URL (is a server up at that address?) and the network between it and this host; the bot connects to it directly (HTTPS_PROXY is not used).`,
    );
  });

  it('names the reason fetch gives when no socket code is there (a port fetch refuses to use)', async () => {
    const err = await failureOf(verifySlackToken('xoxb-1-secretpart', 'http://127.0.0.1:1/api/'));
    expect(err.message).toMatch(/^Cannot reach Slack's Web API at http:\/\/127\.0\.0\.1:1\/api\/ to check the bot token \(bad port\): check SLACK_API_URL/);
  });

  it('without SLACK_API_URL, names Slack\'s address and says to check the network, that HTTPS_PROXY is not used, and SLACK_API_URL for a proxy', async () => {
    // The real failure of a refused connection, worded as for Slack's own address (the test cannot make slack.com unreachable).
    const client = new webApi.WebClient('xoxb-1-secretpart', { slackApiUrl: `http://127.0.0.1:${await freePort()}/api/`, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
    const err = unreachable(await failureOf(client.auth.test()), undefined, 'bot token');
    expect(err.message).toBe(
      "Cannot reach Slack's Web API at https://slack.com/api/ to check the bot token (ECONNREFUSED): check this host's network (DNS, a firewall, outbound HTTPS to slack.com). The bot does not use an HTTPS proxy (HTTPS_PROXY is ignored): where only a proxy reaches Slack, set SLACK_API_URL to that proxy's address of the Web API.",
    );
  });
});
