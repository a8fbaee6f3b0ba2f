import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageShortcutBody, postSigned } from '../support/slack-requests.js';
import { channel, requester, signingSecret, startStack, type Stack } from '../support/stack.js';

/**
 * Slack refuses the one chat.postMessage that announces a fix for a reason other than the bot's place in the
 * channel (`internal_error`, which Slack answers now and then and the Web API client does not retry). The
 * person was told "I cannot post in this channel. Invite me first", in a channel the bot is in: an answer that
 * sends them to do something that cannot help. They must be told what Slack said, that nothing was done, and
 * to ask again; the invitation stays the answer when Slack says the bot is not in the channel. "Find remedy" was
 * answered the same way whatever failed.
 */
describe('the announcement of a fix, or the answer to "Find remedy", that Slack refuses to post', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('root-post-fails');
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const answerTo = async (responseId: string) => {
    const res = await stack.slash('fix git-sensor-stuck', requester, { responseId });
    expect(res.status).toBe(200);
    const told = await stack.fake.waitFor((f) => f.responses(responseId)[0], { what: 'the answer to the fix', timeoutMs: 10_000 });
    return (told.body as { text?: string }).text ?? '';
  };

  it('says what Slack answered and to ask again, not to invite a bot that is in the channel', async () => {
    stack.fake.failNext('chat.postMessage', 'internal_error');
    expect(await answerTo('refused-internal')).toBe('Slack refused to post the fix in this channel (internal_error); nothing was done. Ask again in a moment.');
    expect(stack.fake.messages(channel)).toEqual([]);
  });

  it('still asks to invite the bot when Slack says it is not in the channel', async () => {
    stack.fake.failNext('chat.postMessage', 'not_in_channel');
    expect(await answerTo('refused-not-in')).toBe('I cannot post in this channel. Invite me first (`/invite @platform-medic`), or use a channel I am in.');
  });

  it('"Find remedy" whose answer Slack refuses says what Slack answered, and invites the bot only when it is not in the channel', async () => {
    const use = async (responseId: string, ts: string) => {
      const body = messageShortcutBody({ callback_id: 'find_remedy', user: requester, channel, message: { ts, text: 'git-sensor: fatal: could not read Username: exit status 128' }, response_url: stack.fake.responseUrl(responseId, { channel, user: requester }) });
      expect((await postSigned(stack.eventsUrl, body, { secret: signingSecret })).status).toBe(200);
      const told = await stack.fake.waitFor((f) => f.responses(responseId)[0], { what: 'the answer to the shortcut', timeoutMs: 10_000 });
      return (told.body as { text?: string }).text ?? '';
    };
    stack.fake.failNext('chat.postMessage', 'internal_error');
    expect(await use('shortcut-internal', '1795100000.000500')).toBe('That did not work: Slack refused to post the answer in this thread (internal_error); nothing was posted. Try "Find remedy" again in a moment.');
    stack.fake.failNext('chat.postMessage', 'not_in_channel');
    expect(await use('shortcut-not-in', '1795100000.000600')).toBe('I cannot post in this channel. Invite me first (`/invite @platform-medic`), then try "Find remedy" again.');
  });
});
