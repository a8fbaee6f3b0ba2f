import { HTTPReceiver, LogLevel, SocketModeReceiver, webApi, type App, type Logger as BoltLogger } from '@slack/bolt';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { ClusterEvidenceCache, evidenceCacheOptions } from '../core/evidence-cache.js';
import { registerActions } from '../handlers/actions/index.js';
import { registerCommands } from '../handlers/commands/index.js';
import { registerMessages } from '../handlers/messages/index.js';
import { registerShortcuts } from '../handlers/shortcuts/index.js';
import { registerValues } from '../handlers/values/index.js';
import { answerUnacknowledged } from '../handlers/unanswered.js';
import { PasteBudget } from '../handlers/paste-budget.js';
import { SlackReporter } from '../handlers/slack-reporter.js';
import { SlackWatchReporter } from '../handlers/watch-reporter.js';
import { noticeModal, who } from '../views/slack/kit.js';
import { RemedyCoordinator } from '../jobs/lifecycle/coordinator.js';
import { connectRedis, safeRedisUrl } from '../jobs/redis.js';
import { RedisOutageLog } from '../jobs/redis-outage.js';
import { RequestStore } from '../jobs/requests.js';
import { DoctorWatch } from '../jobs/watch/doctor-watch.js';
import { SharedTokenBuckets } from '../jobs/token-buckets.js';
import { countRequests, observe, slackCheck, startHealthServer, type Health, type HealthServer, type MedicMetrics } from '../observability/index.js';
import { AnsweringApp } from './answering-app.js';
import { configuredApprovers } from './approvers.js';
import { slackLibraryLogger } from './library-logger.js';
import { SlackOutbox } from './outbox.js';
import { RedisReplayMemory, envelopeIdOf, refuseReplays, requestDigest } from './replays.js';
import { boundHeaderTime } from './header-deadline.js';
import { gateRequests } from './request-gate.js';
import { keepAliveFetch } from './web-fetch.js';
import { appTokenRefused, verifyAppToken, verifySlackToken, watchAppTokenRefusals } from './token-checks.js';

/**
 * Bolt's HTTP receiver, with the digest of each verified request for the replay check and, in front
 * of it, the checks Bolt does not make (future timestamps, signed bodies that are not objects).
 * Probes and Prometheus use its port too.
 */
function httpReceiver(signingSecret: string | undefined, apiUrl: string | undefined, slackLog: BoltLogger, logger: Logger, health: Health): HTTPReceiver {
  if (!signingSecret) throw new Error('the HTTP receiver needs SLACK_SIGNING_SECRET');
  const receiver = new HTTPReceiver({ signingSecret, logger: slackLog, customRoutes: health.routes(), customPropertiesExtractor: requestDigest });
  gateRequests(receiver, signingSecret, logger, apiUrl);
  return receiver;
}

/**
 * Bolt's Socket Mode receiver, with each envelope's id for the replay check. Its client gets options
 * of its own: Bolt would otherwise hand it the App's, and the socket client writes its reconnection
 * retries (100) into them, which every listener's Web API client would then inherit.
 */
function socketModeReceiver(appToken: string, apiUrl: string | undefined, slackLog: BoltLogger, refused: (error: string) => void): SocketModeReceiver {
  return new SocketModeReceiver({
    appToken,
    logger: slackLog,
    installerOptions: { clientOptions: { ...(apiUrl ? { slackApiUrl: apiUrl } : {}), fetch: watchAppTokenRefusals(refused) } },
    customPropertiesExtractor: envelopeIdOf,
  });
}

/**
 * Posts a message to an interaction's response_url, as Bolt's respond() does. Over HTTP the request
 * gate has checked that the address is Slack's; over Socket Mode the payload came from Slack itself.
 */
async function postToResponseUrl(fetch: webApi.FetchFunction, url: string, message: Record<string, unknown>): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message), signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`the response_url answered ${res.status}`);
}

/** The Slack bot: Bolt, its listeners, and the coordinator that queues plans and runs. */
export interface SlackBot {
  readonly app: App;
  readonly coordinator: RemedyCoordinator;
  /** The scheduled doctor of the clusters with a `doctor.channel`; absent when none has. */
  readonly watch?: DoctorWatch;
  /** /healthz, /readyz: served on the Bolt port, or on HEALTH_PORT in Socket Mode. */
  readonly health: Health;
  readonly metrics: MedicMetrics;
  /** Starts listening; resolves with the HTTP port (HTTP receiver) or undefined (Socket Mode). */
  start(): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** Builds the Slack bot from a configuration with Slack credentials; `metrics` lets tests read a fresh registry. */
export function createSlackBot(config: Config, logger: Logger, options: { metrics?: MedicMetrics; stopForFailure?: () => void } = {}): SlackBot {
  const { botToken, signingSecret, appToken, apiUrl } = config.slack;
  if (!botToken) throw new Error('createSlackBot needs SLACK_BOT_TOKEN');
  const socketMode = Boolean(appToken);
  // Every call to Slack after start-up (Web API, response_urls, Bolt's respond) shares these connections.
  const connections = keepAliveFetch();
  const { fetch } = connections;
  const api = { ...(apiUrl ? { slackApiUrl: apiUrl } : {}), fetch };
  const client = new webApi.WebClient(botToken, { ...api, timeout: 3_000, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
  const observed = observe({ redisUrl: config.redisUrl, queuePrefix: config.queuePrefix, clusters: config.clusters.map((c) => c.name), checks: [slackCheck(client)], ...options });
  const { health, metrics } = observed;
  // The bot's identity comes from the one auth.test start() makes. Bolt, given a token without
  // verification, would call auth.test again before every request (measured: one per command).
  let identity: { botId: string; botUserId: string } | undefined;
  // Every Slack library writes through one adapter that keeps payloads (messages, envelopes) out of the log.
  const slackLog = slackLibraryLogger(logger);
  // Reads only (approver groups); writes go through the outbox below.
  const webClient = new webApi.WebClient(botToken, { ...api, logger: slackLog });
  // Slack refusing the app-level token after start-up (revoked, its app deleted) ends Socket Mode for good: the
  // bot says so once and asks to be stopped, so that it is restarted and its start-up check keeps saying why.
  let refusedOnce = false;
  const onAppTokenRefused = (error: string) => {
    if (refusedOnce) return;
    refusedOnce = true;
    health.beginShutdown();
    logger.fatal(`${appTokenRefused(error, ' while reconnecting')} The bot stops (exit 1) to be restarted; each start checks the token again.`);
    options.stopForFailure?.();
  };
  const receiver = appToken ? socketModeReceiver(appToken, apiUrl, slackLog, onAppTokenRefused) : httpReceiver(signingSecret, apiUrl, slackLog, logger, health);
  // Every write goes through the outbox. Its client hands 429s back (rejectRateLimitedCalls) for the
  // outbox to schedule, rather than sleeping on them and blocking all the bot's other writes.
  const writer = new webApi.WebClient(botToken, { ...api, logger: slackLog, rejectRateLimitedCalls: true, retryConfig: { retries: 3, minTimeout: 500, maxTimeout: 5000 }, timeout: 10_000 });
  const outbox = new SlackOutbox(writer, {
    pasteMaxAgeMs: config.pasteAnswerMaxAgeSeconds * 1000,
    onRateLimited: (lane) => metrics.slackRateLimited(lane),
    onStale: () => metrics.pasteDropped('stale'),
  });
  // Requests a listener failed on, so that one left unacknowledged is told so rather than "unknown".
  const failures = new WeakSet<object>();
  const unanswered = { logger, failedOn: (body: object) => failures.has(body), respond: (url: string, message: Record<string, unknown>) => postToResponseUrl(fetch, url, message), notify: (triggerId: string, text: string) => outbox.remedy.openView({ trigger_id: triggerId, view: noticeModal(text) }).then(() => undefined) };
  const app: App = new AnsweringApp(
    {
      authorize: async () => {
        identity ??= await verifySlackToken(botToken, apiUrl);
        return { botToken, ...identity };
      },
      receiver,
      logger: slackLog,
      // No listener keeps conversation state. Bolt's default store would look every request up and,
      // finding nothing, build an Error (and its stack) for each.
      convoStore: false,
      extendedErrorHandler: true,
      clientOptions: api,
    },
    (body, ack) => answerUnacknowledged(body, ack, unanswered),
  );
  const budgetRedis = connectRedis(config.redisUrl, 'client');
  budgetRedis.on('error', () => undefined);
  const pasteBudget = new PasteBudget(new SharedTokenBuckets(budgetRedis, config.queuePrefix), { perUser: config.pasteAnswersPerUserPerMinute, perChannel: config.pasteAnswersPerChannelPerMinute });
  // The fix requests: one store, read by the reporter and the replay check, written by the lifecycle.
  const outage = new RedisOutageLog({ logger, redis: safeRedisUrl(config.redisUrl) });
  const redis = connectRedis(config.redisUrl, 'client');
  outage.watchConnection(redis);
  const store = new RequestStore(redis, config.queuePrefix);
  const reporter = new SlackReporter(outbox.remedy, store, logger);
  const policy = configuredApprovers(config, webClient, logger);
  const coordinator = new RemedyCoordinator({ config, logger, redis, store, outage, reporter, policy, metrics, nameOf: who });
  const watch = new DoctorWatch({ config, logger, redis, desk: coordinator, policy, reporter: new SlackWatchReporter(outbox.remedy, logger), nameOf: who });
  const watching = watch.clusters().length > 0;
  app.use(countRequests(metrics));
  const replayRedis = connectRedis(config.redisUrl, 'client');
  replayRedis.on('error', () => undefined);
  app.use(refuseReplays(new RedisReplayMemory(replayRedis, config.queuePrefix), logger));
  // A read with a short timeout and no retries: a fix's announcement waits for it.
  const permalink = async (channel: string, ts: string) => (await client.chat.getPermalink({ channel, message_ts: ts })).permalink;
  // Pasted errors' candidates are checked on the cluster, each entry at most once per pasteEvidenceReuseSeconds per replica.
  const pasteEvidence = new ClusterEvidenceCache(coordinator, evidenceCacheOptions(config));
  const deps = { config, coordinator, logger, metrics, outbox, pasteBudget, permalink, pasteEvidence, ...(watching ? { watch } : {}) };
  registerCommands(app, deps);
  registerActions(app, deps);
  registerShortcuts(app, deps);
  registerMessages(app, deps);
  registerValues(app, deps);
  app.error(async ({ error, body }: { error: Error; body?: object }) => {
    if (typeof body === 'object' && body !== null) failures.add(body);
    logger.error({ err: error.message, code: (error as { code?: string }).code }, 'unhandled error in a Slack listener');
  });

  let healthServer: HealthServer | undefined;
  return {
    app,
    coordinator,
    ...(watching ? { watch } : {}),
    health,
    metrics,
    async start() {
      identity = await verifySlackToken(botToken, apiUrl);
      if (appToken) await verifyAppToken(appToken, apiUrl);
      await coordinator.start();
      if (watching) watch.start();
      if (socketMode) {
        await app.start();
        healthServer = await startHealthServer(config.healthPort, health.routes());
        return undefined;
      }
      const server = (await app.start(config.port)) as Server;
      boundHeaderTime(server);
      const address = server.address();
      return typeof address === 'object' && address ? address.port : config.port;
    },
    /**
     * Stops taking requests (in-flight ones finish), lets queued reports finish and closes the queues;
     * paste answers still waiting are dropped, remedy messages are sent.
     */
    async stop() {
      health.beginShutdown();
      await app.stop();
      await healthServer?.close();
      await watch.stop();
      await coordinator.close();
      await redis.quit().catch(() => undefined);
      await outbox.close();
      await budgetRedis.quit().catch(() => undefined);
      await replayRedis.quit().catch(() => undefined);
      await observed.close();
      connections.close();
    },
  };
}
