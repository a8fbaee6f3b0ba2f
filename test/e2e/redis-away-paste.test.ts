import { Writable } from 'node:stream';
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

  // Found in review: the notices had no budget (the paste budgets live in Redis, which is away), so a flood of pastes
  // during an outage became as many private messages, against Slack's rate limits.
  it('tells each person at least once, a few times at most, and drops the rest with a log line that carries no paste', async () => {
    const redis = await startOwnRedis();
    const logLines: string[] = [];
    const botLog = new Writable({ write: (chunk: Buffer | string, _e, cb) => (logLines.push(...chunk.toString().split('\n').filter(Boolean)), cb()) });
    const stack = await startStack('redis-away-flood', { redisUrl: redis.url, botLog });
    try {
      await redis.kill();
      const error = (n: number) => `git-sensor: fatal: could not read Username for https://github.com/team/repo-${n}.git: exit status 128`;
      let n = 0;
      const paste = (user: string, where: string, channelType: string) => {
        const ts = `1795100000.${String(400 + ++n).padStart(6, '0')}`;
        const event = { type: 'message', channel: where, channel_type: channelType, user, text: error(n), ts, event_ts: ts };
        return postSigned(stack.eventsUrl, eventCallbackBody(event, `Ev0FLOOD${n}`), { secret: signingSecret, contentType: 'application/json' });
      };
      // One person floods the channel with 12 errors; ten others paste 3 each, each in a direct message of their own.
      const others = Array.from({ length: 10 }, (_, i) => `U0AWAY${String(i).padStart(2, '0')}`);
      const sent = [
        ...Array.from({ length: 12 }, () => paste(requester, channel, 'channel')),
        ...others.flatMap((user, i) => Array.from({ length: 3 }, () => paste(user, `D0AWAY${String(i).padStart(2, '0')}`, 'im'))),
      ];
      expect((await Promise.all(sent)).map((r) => r.status)).toEqual(sent.map(() => 200));
      // Each person's first notice goes, and 20 more in all: 11 + 20 of the 42 pastes.
      await stack.fake.waitFor((f) => f.ephemerals().length >= 31, { what: '31 notices', timeoutMs: 20_000 });
      await new Promise((r) => setTimeout(r, 1_500));
      const notices = stack.fake.ephemerals();
      expect(notices).toHaveLength(31);
      expect(new Set(notices.map((e) => e.text))).toEqual(new Set(['I cannot answer this pasted error right now (the queue, Redis, does not answer); nothing was done. Paste it again in a minute.']));
      expect(stack.fake.ephemerals(requester)).toHaveLength(3);
      for (const user of others) expect(stack.fake.ephemerals(user).length, user).toBeGreaterThanOrEqual(1);
      expect(stack.fake.messages(channel)).toEqual([]);
      const dropped = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => typeof l.msg === 'string' && l.msg.startsWith('paste not answered while Redis does not answer'));
      expect(dropped).toHaveLength(11);
      expect(dropped.every((l) => l.level === 30)).toBe(true);
      expect(logLines.join('\n')).not.toContain('could not read Username');
    } finally {
      await redis.start();
      await stack.stop();
      await redis.stop();
    }
  }, 180_000);
});
