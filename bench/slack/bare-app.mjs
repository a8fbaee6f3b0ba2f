/**
 * Child process: the baseline of the Slack bar, a bare Bolt app (same Bolt, its default HTTP
 * receiver on loopback, the same signing secret) whose `/platform` listener only acknowledges. Plain
 * JavaScript under plain `node`, like the bot's production form it is compared with. Its Web API
 * also points at the fake Slack, so its one auth.test at start stays on loopback.
 * Argument: JSON `{ token, signingSecret, apiUrl }`.
 */
import { setImmediate } from 'node:timers';
import { App, LogLevel } from '@slack/bolt';
import { serveParent, startSampler } from './child.mjs';

const sampler = startSampler();
const { token, signingSecret, apiUrl } = JSON.parse(process.argv[2] ?? '{}');
const app = new App({ token, signingSecret, clientOptions: { slackApiUrl: apiUrl }, logLevel: LogLevel.WARN });

app.command('/platform', async ({ ack }) => {
  await ack();
});

const server = await app.start(0);
const address = server.address();
if (typeof address !== 'object' || !address) throw new Error('the bare app has no TCP address');
serveParent(
  {
    stats: (arg) => sampler.stats(arg ?? {}),
    mark: () => sampler.mark(),
    resetPeaks: () => sampler.resetPeaks(),
    async stop() {
      await app.stop();
      setImmediate(() => process.exit(0));
    },
  },
  { port: address.port },
);
