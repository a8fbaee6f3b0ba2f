import { Writable } from 'node:stream';
import { LogLevel, webApi } from '@slack/bolt';
import { pino } from 'pino';
import { ClusterEvidenceCache, evidenceCacheOptions } from '../../src/core/evidence-cache.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
import { PasteBudget } from '../../src/handlers/paste-budget.js';
import { connectRedis } from '../../src/jobs/redis.js';
import { SharedTokenBuckets } from '../../src/jobs/token-buckets.js';
import { SlackOutbox } from '../../src/slack/outbox.js';
import type { Stack } from './stack.js';

/**
 * What a listener is given, built from the real parts of a running stack: its configuration and
 * coordinator (real Redis, the worker behind it), an outbox writing to the fake Slack's Web API, and
 * the paste budgets in Redis. A listener called with these behaves as the one Bolt calls.
 */
export function listenerDeps(stack: Stack): { deps: HandlerDeps; close(): Promise<void> } {
  const { config } = stack;
  const writer = new webApi.WebClient(config.slack.botToken, { slackApiUrl: config.slack.apiUrl!, logLevel: LogLevel.ERROR, rejectRateLimitedCalls: true, retryConfig: { retries: 0 } });
  const outbox = new SlackOutbox(writer, { pasteMaxAgeMs: config.pasteAnswerMaxAgeSeconds * 1000 });
  const redis = connectRedis(config.redisUrl, 'client');
  redis.on('error', () => undefined);
  const pasteBudget = new PasteBudget(new SharedTokenBuckets(redis, config.queuePrefix), { perUser: config.pasteAnswersPerUserPerMinute, perChannel: config.pasteAnswersPerChannelPerMinute });
  const logger = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));
  return {
    deps: { config, coordinator: stack.bot.coordinator, logger, outbox, pasteBudget, pasteEvidence: new ClusterEvidenceCache(stack.bot.coordinator, evidenceCacheOptions(config)), metrics: stack.bot.metrics },
    async close() {
      await outbox.close();
      await redis.quit().catch(() => undefined);
    },
  };
}

/** What a listener did with Bolt's `ack` and `respond`: each call's argument, in order. */
export interface Recorded {
  readonly acks: unknown[];
  readonly responses: unknown[];
  ack(response?: unknown): Promise<void>;
  respond(message: unknown): Promise<void>;
}

/** Fake `ack` and `respond` that record what the listener sent; `ack` fails if called twice, as Bolt's does. */
export function recorder(): Recorded {
  const acks: unknown[] = [];
  const responses: unknown[] = [];
  return {
    acks,
    responses,
    ack: async (response?: unknown) => {
      if (acks.length > 0) throw new Error('ack called twice');
      acks.push(response);
    },
    respond: async (message: unknown) => {
      responses.push(message);
    },
  };
}
