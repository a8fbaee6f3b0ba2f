/**
 * The real @slack/web-api client pointed at a fake, configured the way tests need it: no retries, and
 * 429s rejected at once (otherwise the client sleeps Retry-After seconds even with retries: 0).
 */
import { LogLevel, WebClient } from '@slack/web-api';
import type { Logger } from '@slack/web-api';
import type { FakeSlackApi } from '../fakes/slack-api.js';

/** Swallows the client's logging: it logs every `[ERROR]` reason of a rejected call, which tests provoke. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};

export function webClientFor(fake: FakeSlackApi, token: string | undefined = fake.botToken): WebClient {
  return new WebClient(token, {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: silentLogger,
  });
}
