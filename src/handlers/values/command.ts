import type { RespondFn, SlashCommand } from '@slack/bolt';
import { upgradeModal } from '../../views/slack/values.js';
import type { HandlerDeps } from '../deps.js';
import { slackRefusal } from '../slack-refusals.js';

/**
 * `/platform values upgrade`, once acked: opens the modal with the command's trigger_id. (A check is
 * answered by the core in the ack itself, privately: the paste may hold secrets.) A form Slack did not
 * open is said to the person alone, with the way to ask without it.
 */
export async function openUpgradeModal(deps: HandlerDeps, command: Pick<SlashCommand, 'trigger_id' | 'channel_id'>, respond: RespondFn): Promise<void> {
  try {
    await deps.outbox.remedy.openView({ trigger_id: command.trigger_id, view: upgradeModal({ c: command.channel_id }, deps.config.clusters.map((c) => c.name)) });
  } catch (err) {
    deps.logger.warn({ err: (err as Error).message }, 'could not open the values upgrade modal');
    const text = `Slack did not open the upgrade form (${slackRefusal(err) ?? 'no answer'}); nothing was done. Type \`/platform values upgrade\` again, or give its flags: \`/platform values upgrade --provider S3|AZURE|GCP|BUNDLED …\`.`;
    await respond({ response_type: 'ephemeral', text }).catch((e: unknown) => deps.logger.warn({ err: (e as Error).message }, 'could not tell the person the form did not open'));
  }
}
