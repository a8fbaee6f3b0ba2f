/**
 * Child process: the real platform-medic Slack bot, built as `platform-medic start` builds it
 * (loadConfig from this process's environment, the product's logger, createSlackBot on Bolt's HTTP
 * receiver). Its Web API is the fake Slack on loopback; its queues are on the benchmark's Redis.
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createSlackBot } from '../../src/slack/app.js';
import { serveParent } from './ipc.js';
import { startSampler } from './sampler.js';

const sampler = startSampler();
const config = loadConfig();
const bot = createSlackBot(config, createLogger(config.logLevel));
const port = await bot.start();
serveParent(
  {
    stats: (arg) => sampler.stats(arg as { gc?: boolean } | undefined),
    mark: () => sampler.mark(),
    async stop() {
      await bot.stop();
      setImmediate(() => process.exit(0));
    },
  },
  { port },
);
