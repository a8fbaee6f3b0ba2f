import { App, LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { registerActions } from '../handlers/actions/index.js';
import { registerCommands } from '../handlers/commands/index.js';
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
    ...(signingSecret ? { signingSecret } : {}),
    ...(socketMode ? { socketMode: true, appToken } : {}),
    logger: boltLogger(logger),
    ...(apiUrl ? { clientOptions: { slackApiUrl: apiUrl } } : {}),
  });
  const reporter = new SlackReporter(app.client, logger);
  const coordinator = new RemedyCoordinator({ config, logger, reporter, policy: configuredApprovers(config) });
  reporter.attach(coordinator.store);
  const deps = { config, coordinator, logger };
  registerCommands(app, deps);
  registerActions(app, deps);
  app.error(async (err) => {
    logger.error({ err: err.message, code: (err as { code?: string }).code }, 'unhandled error in a Slack listener');
  });

  return {
    app,
    coordinator,
    async start() {
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
