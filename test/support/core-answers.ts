import { loadConfig } from '../../src/config.js';
import { answerLine, type CommandContext } from '../../src/core/index.js';
import { slackMessage } from '../../src/views/slack/answer.js';

/**
 * The core's answer to a typed line, as Slack would get it, for commands answered without the queues (usage,
 * values, fix's checks before admission): one configured cluster, `prod-eu`, and a person who is no approver.
 */
export const coreContext: CommandContext = {
  config: loadConfig({ env: {}, overrides: { clusters: [{ name: 'prod-eu', kube: { source: 'simulated' } }], defaultCluster: 'prod-eu' } }),
  desk: {} as CommandContext['desk'],
  user: 'UALICE',
};

/** The answer's kind, and for a view its notification text. */
export async function answerOf(line: string): Promise<{ kind: string; text?: string }> {
  const answer = await answerLine(line, coreContext);
  return answer.kind === 'view' ? { kind: 'view', text: slackMessage(answer.view).text } : { kind: answer.kind };
}

/** The notification text of a line answered with a view; any other answer fails the test. */
export async function viewText(line: string): Promise<string> {
  const answer = await answerOf(line);
  if (answer.kind !== 'view') throw new Error(`expected a view, got ${answer.kind}`);
  return answer.text!;
}

/** The whole message Slack gets for a line answered with a view (text and blocks, as JSON). */
export async function slackJson(line: string): Promise<string> {
  const answer = await answerLine(line, coreContext);
  if (answer.kind !== 'view') throw new Error(`expected a view, got ${answer.kind}`);
  return JSON.stringify(slackMessage(answer.view));
}
