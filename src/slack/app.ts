import { App, LogLevel, webApi, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { registerActions } from '../handlers/actions/index.js';
import { registerCommands } from '../handlers/commands/index.js';
import { registerMessages } from '../handlers/messages/index.js';
import { registerShortcuts } from '../handlers/shortcuts/index.js';
import { registerValues } from '../handlers/values/index.js';
import { SlackReporter } from '../handlers/slack-reporter.js';
import { configuredApprovers, RemedyCoordinator } from '../remedies/coordinator.js';

/** Bolt's logger interface over our pino logger. */
function boltLogger(logger: Logger): BoltLogger {
  const log = logger.child({ component: 'bolt' });
  let level = LogLevel.INFO;
  return {
    debug: (...m: unknown[]) => log.debug(m.map(String).join(' ')),
    info: (...m: unknown[]) => log.info(m.map(String).join(' ')),
    warn: (...m: unknown[]) => log.warn(m.map(String).join(' ')),
    error: (...m: unknown[]) => log.error(m.map(String).join(' ')),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/** Slack refused the token or could not be reached; the message says which. Never contains the token. */
export class SlackStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlackStartError';
  }
}

/** Checks the bot token with auth.test, quickly: a wrong token or an unreachable Slack stops start-up. */
export async function verifySlackToken(token: string, apiUrl?: string): Promise<void> {
  const client = new webApi.WebClient(token, { ...(apiUrl ? { slackApiUrl: apiUrl } : {}), retryConfig: { retries: 1, minTimeout: 200, maxTimeout: 1000 }, timeout: 5000, logLevel: LogLevel.ERROR });
  try {
    await client.auth.test();
  } catch (err) {
    const e = err as { code?: string; data?: { error?: string }; message: string };
    if (e.code === webApi.ErrorCode.PlatformError) {
      throw new SlackStartError(`Slack refused SLACK_BOT_TOKEN (${e.data?.error ?? 'error'}): check the token of the app's "OAuth & Permissions" page.`);
    }
    throw new SlackStartError(`Cannot reach Slack's Web API${apiUrl ? ` at ${apiUrl}` : ''} to check the bot token (${e.message}).`);
  }
}

/** The Slack bot: Bolt, its listeners, and the coordinator that queues plans and runs. */
export interface SlackBot {
  readonly app: App;
  readonly coordinator: RemedyCoordinator;
  /** Starts listening; resolves with the HTTP port (HTTP receiver) or undefined (Socket Mode). */
  start(): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** Builds the Slack bot from a configuration with Slack credentials. */
export function createSlackBot(config: Config, logger: Logger): SlackBot {
  const { botToken, signingSecret, appToken, apiUrl } = config.slack;
  if (!botToken) throw new Error('createSlackBot needs SLACK_BOT_TOKEN');
  const socketMode = Boolean(appToken);
  const app = new App({
    token: botToken,
    // start() checks the token itself, once, with a clear error; Bolt's own check at construction
    // would retry for minutes and only log.
    tokenVerificationEnabled: false,
    ...(signingSecret ? { signingSecret } : {}),
    ...(socketMode ? { socketMode: true, appToken } : {}),
    logger: boltLogger(logger),
    ...(apiUrl ? { clientOptions: { slackApiUrl: apiUrl } } : {}),
  });
  const reporter = new SlackReporter(app.client, logger);
  const coordinator = new RemedyCoordinator({ config, logger, reporter, policy: configuredApprovers(config, app.client, logger) });
  reporter.attach(coordinator.store);
  reporter.expiresAt = (plan) => coordinator.expiresAt(plan);
  const deps = { config, coordinator, logger };
  registerCommands(app, deps);
  registerActions(app, deps);
  registerShortcuts(app, deps);
  registerMessages(app, deps);
  registerValues(app, deps);
  app.error(async (err) => {
    logger.error({ err: err.message, code: (err as { code?: string }).code }, 'unhandled error in a Slack listener');
  });

  return {
    app,
    coordinator,
    async start() {
      await verifySlackToken(botToken, apiUrl);
      await coordinator.start();
      if (socketMode) {
        await app.start();
        return undefined;
      }
      const server = (await app.start(config.port)) as { address(): { port: number } | string | null };
      const address = server.address();
      return typeof address === 'object' && address ? address.port : config.port;
    },
    async stop() {
      await app.stop();
      await coordinator.close();
    },
  };
}
