import { ConfigError, hasSlackCredentials, type Config } from './config.js';
import { assertRedisReachable, safeRedisUrl } from './jobs/redis.js';
import { createLogger } from './logger.js';
import { installProcessGuards } from './observability/process-guards.js';
import { onShutdown } from './observability/shutdown.js';
import { createSlackBot } from './slack/app.js';

/**
 * The bot's composition root (`platform-medic bot`), apart from app.ts: the bot's process loads the
 * Slack side alone, never the worker's Kubernetes and database clients nor the simulated cluster.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Slack bot: Bolt's HTTP receiver (or Socket Mode) and the queues of every cluster. */
export async function runBot(configured: Config): Promise<void> {
  // `platform-medic bot` with no Slack credentials at all (the configuration checks only those given): what to set, and the terminal.
  if (!hasSlackCredentials(configured)) {
    throw new ConfigError([
      'SLACK_BOT_TOKEN (slack.botToken): the Slack bot needs it, with SLACK_SIGNING_SECRET (HTTP) or SLACK_APP_TOKEN (Socket Mode); without Slack, npm start (or platform-medic terminal) opens the terminal adapter',
    ]);
  }
  const logger = createLogger(configured.logLevel);
  installProcessGuards(logger);
  const redis = await assertRedisReachable(configured.redisUrl);
  if (redis.note) logger.warn(redis.note);
  const config: Config = Object.freeze({ ...configured, redisUrl: redis.url });
  const bot = createSlackBot(config, logger, { stopForFailure: () => stopForFailure() });
  // Readiness goes 503 first, so Services and load balancers stop routing here before the server closes.
  const stopForFailure = onShutdown(logger, config.shutdownSeconds, async () => {
    bot.health.beginShutdown();
    await sleep(config.shutdownDrainSeconds * 1000);
    await bot.stop();
  });
  const port = await bot.start();
  logger.info({ port, socketMode: port === undefined, clusters: config.clusters.map((c) => c.name), redis: safeRedisUrl(config.redisUrl) }, 'platform-medic bot started');
}
