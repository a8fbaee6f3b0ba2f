/**
 * Child process: the baseline of the Slack bar, a bare Bolt app (same Bolt, its default HTTP
 * receiver on loopback, the same signing secret) whose `/platform` listener only acknowledges.
 * Its Web API also points at the fake Slack, so its one auth.test at start stays on loopback.
 * Argument: JSON `{ token, signingSecret, apiUrl }`.
 */
import { App, LogLevel } from '@slack/bolt';
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { serveParent } from './ipc.js';
import { startSampler } from './sampler.js';

const sampler = startSampler();
const { token, signingSecret, apiUrl } = JSON.parse(process.argv[2] ?? '{}') as { token: string; signingSecret: string; apiUrl: string };
const app = new App({ token, signingSecret, clientOptions: { slackApiUrl: apiUrl }, logLevel: LogLevel.WARN });

async function ackOnly({ ack }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> {
  await ack();
}
app.command('/platform', ackOnly);

const server = (await app.start(0)) as { address(): { port: number } | string | null };
const address = server.address();
if (typeof address !== 'object' || !address) throw new Error('the bare app has no TCP address');
serveParent(
  {
    stats: (arg) => sampler.stats(arg as { gc?: boolean } | undefined),
    mark: () => sampler.mark(),
    async stop() {
      await app.stop();
      setImmediate(() => process.exit(0));
    },
  },
  { port: address.port },
);
