import type { BlockButtonAction } from '@slack/bolt';
import type { HandlerDeps } from '../deps.js';
import type { SlackThread } from '../slack-reporter.js';

/** The workspace a click came from (`team`; in an organisation-wide install only the user's). */
export function clickTeam(body: BlockButtonAction): string | undefined {
  return body.team?.id ?? body.user.team_id;
}

/** The channel a click came from. */
function clickChannel(body: BlockButtonAction): string | undefined {
  return body.channel?.id ?? (body.container as { channel_id?: string } | undefined)?.channel_id;
}

/** What a person who clicks a card's button from elsewhere is told. */
export const notFromCard = 'This button belongs to an approval card in another channel or workspace; nothing was done.';

/**
 * Whether a click on a remedy's button came from the channel and workspace of that remedy's card.
 * A signed click naming another channel or team is refused and audited; an unknown request is left
 * to the coordinator, which says it is no longer known. Records made before the workspace was kept
 * are checked by channel alone.
 */
export async function refuseIfNotFromCard(deps: HandlerDeps, requestId: string, body: BlockButtonAction): Promise<string | undefined> {
  const request = await deps.coordinator.store.get(requestId);
  if (!request) return undefined;
  const card = JSON.parse(request.context) as Partial<SlackThread>;
  const channel = clickChannel(body);
  const team = clickTeam(body);
  if (channel === card.channel && (card.team === undefined || team === card.team)) return undefined;
  const detail = `a click from channel ${channel ?? '?'} of workspace ${team ?? '?'}, not the card's (${card.channel ?? '?'} of ${card.team ?? '?'})`;
  deps.logger.warn({ requestId, user: body.user.id, channel, team }, 'refused a click from outside its card');
  await deps.coordinator.audit
    .append({ action: 'refused', who: body.user.id, requestId, entryId: request.entryId, cluster: request.cluster, stageId: request.stageId, detail })
    .catch((err: unknown) => deps.logger.error({ err: (err as Error).message }, 'could not append to the audit trail'));
  return notFromCard;
}
