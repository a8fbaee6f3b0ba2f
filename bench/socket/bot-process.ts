/**
 * Child process of the Socket Mode bench: the Slack bot, started from its configuration in the
 * environment exactly as `platform-medic bot` builds it (HTTP receiver, or Socket Mode when
 * SLACK_APP_TOKEN is set). Ready once it listens (HTTP) or holds its connection (Socket Mode).
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { createSlackBot } from '../../src/slack/app.js';
import { serveParent, startSampler } from '../slack/child.mjs';

const sampler = startSampler();
// The bench measures the bot, not its logging.
const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));
const bot = createSlackBot(loadConfig({ env: process.env }), silent);

serveParent(
  {
    stats: (arg) => sampler.stats(arg as { gc?: boolean } | undefined),
    async stop() {
      await bot.stop();
      setImmediate(() => process.exit(0));
    },
  },
  bot.start().then((port) => ({ port: port ?? 0 })),
);
