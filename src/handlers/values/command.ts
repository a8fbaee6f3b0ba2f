import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { PlatformCommand } from '../../core/parse.js';
import { checkValues } from '../../values/check.js';
import { upgradeModal, valuesAnswer } from '../../views/slack/values.js';
import type { HandlerDeps } from '../deps.js';
import { fromSlackText } from './slack-text.js';

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;
type ValuesCommand = Extract<PlatformCommand, { kind: 'values' }>;

/**
 * `/platform values check …` and `/platform values upgrade`. A check is answered in the ack itself
 * (privately: the paste may hold secrets, and the answer is redacted anyway); the upgrade acks first,
 * then opens the modal with the command's trigger_id. The pasted text is neither logged nor kept.
 */
export async function valuesCommand(deps: HandlerDeps, parsed: ValuesCommand, { command, ack }: Pick<Args, 'command' | 'ack'>): Promise<void> {
  if (parsed.action === 'check') {
    const answer = valuesAnswer(
      checkValues(fromSlackText(parsed.text), {
        ...(parsed.nodeIamRole !== undefined ? { nodeIamRole: parsed.nodeIamRole } : {}),
        ...(parsed.s3Compatible ? { s3Compatible: true } : {}),
        names: deps.config.clusters.find((c) => c.name === deps.config.defaultCluster) ?? deps.config.clusters[0]!,
      }),
    );
    return ack({ response_type: 'ephemeral', text: answer.text, blocks: answer.blocks });
  }
  await ack();
  try {
    await deps.outbox.remedy.openView({ trigger_id: command.trigger_id, view: upgradeModal({ c: command.channel_id }, deps.config.clusters.map((c) => c.name)) });
  } catch (err) {
    deps.logger.warn({ err: (err as Error).message }, 'could not open the values upgrade modal');
  }
}
