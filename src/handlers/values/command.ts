import type { SlashCommand } from '@slack/bolt';
import { upgradeModal } from '../../views/slack/values.js';
import type { HandlerDeps } from '../deps.js';

/**
 * `/platform values upgrade`, once acked: opens the modal with the command's trigger_id. (A check is
 * answered by the core in the ack itself, privately: the paste may hold secrets.)
 */
export async function openUpgradeModal(deps: HandlerDeps, command: Pick<SlashCommand, 'trigger_id' | 'channel_id'>): Promise<void> {
  try {
    await deps.outbox.remedy.openView({ trigger_id: command.trigger_id, view: upgradeModal({ c: command.channel_id }, deps.config.clusters.map((c) => c.name)) });
  } catch (err) {
    deps.logger.warn({ err: (err as Error).message }, 'could not open the values upgrade modal');
  }
}
