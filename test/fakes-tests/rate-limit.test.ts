import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlackApi } from '../fakes/slack-api.js';
import type { FakeSlackApi, FakeSlackApiOptions } from '../fakes/slack-api.js';
import { silentLogger, webClientFor } from './web-client.js';

describe('fake Slack rate-limits chat.postMessage per channel', () => {
  let fake: FakeSlackApi | undefined;
  let clock = 1_700_000_000_000;
  const start = async (options: FakeSlackApiOptions = {}) => {
    fake = await startFakeSlackApi({ now: () => clock, ...options });
    return fake;
  };
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('answers 429 with Retry-After once the burst is spent, then refills', async () => {
    const slack = await start({ rateLimit: { burst: 3, perSecond: 1 } });
    const client = webClientFor(slack);
    for (let i = 0; i < 3; i += 1) await client.chat.postMessage({ channel: 'C1', text: `m${i}` });

    await expect(client.chat.postMessage({ channel: 'C1', text: 'one too many' })).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
      retryAfter: 1,
    });
    // Another channel has its own bucket.
    await expect(client.chat.postMessage({ channel: 'C2', text: 'elsewhere' })).resolves.toMatchObject({ ok: true });

    clock += 1000;
    await expect(client.chat.postMessage({ channel: 'C1', text: 'after a second' })).resolves.toMatchObject({ ok: true });
    expect(slack.messages('C1').map((m) => m.text)).toEqual(['m0', 'm1', 'm2', 'after a second']);
    expect(slack.calls('chat.postMessage').filter((c) => c.error === 'ratelimited')).toHaveLength(1);
  });

  it('sends the raw HTTP answer Slack sends: 429, Retry-After in seconds, ratelimited', async () => {
    const slack = await start({ rateLimit: { burst: 1, perSecond: 0.25 } });
    const post = () =>
      fetch(`${slack.apiUrl}chat.postMessage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'channel=C1&text=hi',
      });
    expect((await post()).status).toBe(200);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('4');
    expect(await limited.json()).toEqual({ ok: false, error: 'ratelimited' });
  });

  it('WebClient without rejectRateLimitedCalls sleeps Retry-After seconds, then retries', async () => {
    const slack = await start({ rateLimit: { burst: 1, perSecond: 1 } });
    const client = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 1, minTimeout: 0 }, logger: silentLogger });
    await client.chat.postMessage({ channel: 'C1', text: 'first' });
    const started = Date.now();
    const second = client.chat.postMessage({ channel: 'C1', text: 'second' });
    // The bucket refills on the fake clock once the 429 has been given; the client's wait is real time.
    await slack.waitFor((f) => f.calls('chat.postMessage').some((c) => c.status === 429), { what: 'a 429' });
    clock += 1000;
    await expect(second).resolves.toMatchObject({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(slack.calls('chat.postMessage').map((c) => c.status)).toEqual([200, 429, 200]);
  });

  it('can be switched off per test', async () => {
    const slack = await start({ rateLimit: { burst: 1, perSecond: 1 } });
    slack.setRateLimit(false);
    const client = webClientFor(slack);
    for (let i = 0; i < 20; i += 1) await client.chat.postMessage({ channel: 'C1', text: `m${i}` });
    expect(slack.messages('C1')).toHaveLength(20);
  });
});
