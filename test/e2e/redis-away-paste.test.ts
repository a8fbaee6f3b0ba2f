import { describe, expect, it } from 'vitest';
import { startOwnRedis } from '../support/own-redis.js';
import { eventCallbackBody, postSigned } from '../support/slack-requests.js';
import { channel, requester, signingSecret, startStack } from '../support/stack.js';

describe('a pasted error while Redis is away', () => {
  // Found by an attacker's try: the replay check could not ask Redis, acknowledged the event (Slack does not send it
  // again) and ran nothing, so the person who pasted an error heard nothing at all.
  it('tells the person, only them, that it was not answered and to paste it again; chatter still gets nothing', async () => {
    const redis = await startOwnRedis();
    const stack = await startStack('redis-away-paste', { redisUrl: redis.url });
    try {
      await redis.kill();
      const paste = (ts: string, text: string) =>
        postSigned(stack.eventsUrl, eventCallbackBody({ type: 'message', channel, channel_type: 'channel', user: requester, text, ts, event_ts: ts }, `Ev0AWAY${ts.slice(-4)}`), { secret: signingSecret, contentType: 'application/json' });
      expect((await paste('1795100000.000301', 'git-sensor: fatal: could not read Username for https://github.com: exit status 128')).status).toBe(200);
      expect((await paste('1795100000.000302', 'lunch at noon, anyone?')).status).toBe(200);
      const told = await stack.fake.waitFor((f) => f.ephemerals(requester)[0], { what: 'a private notice', timeoutMs: 10_000 });
      expect(told.text).toBe('I cannot answer this pasted error right now (the queue, Redis, does not answer); nothing was done. Paste it again in a minute.');
      // One notice, for the error only, and nothing in the channel.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(stack.fake.ephemerals(requester)).toHaveLength(1);
      expect(stack.fake.messages(channel)).toEqual([]);
    } finally {
      await redis.start();
      await stack.stop();
      await redis.stop();
    }
  }, 180_000);
});
