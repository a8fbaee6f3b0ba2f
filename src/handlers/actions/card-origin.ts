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

/** The message a click came from. */
function clickMessage(body: BlockButtonAction): string | undefined {
  return (body.container as { message_ts?: string } | undefined)?.message_ts ?? (body.message as { ts?: string } | undefined)?.ts;
}

/** What a person who clicks a card's button from elsewhere is told. */
export const notFromCard = 'This button belongs to an approval card in another channel or workspace; nothing was done.';

/** What a person is told when the button clicked names another remedy than the card it is on. */
export const notThisCard = 'This button does not belong to the approval card it was clicked on; nothing was done.';

/** Where a click must come from: the card's channel and workspace, and for Approve and Deny the card itself. */
export interface CardOrigin {
  /** The button exists only on the remedy's current approval card (Approve, Deny). */
  readonly onCard?: boolean;
}

/**
 * Whether a click on a remedy's button came from the channel and workspace of that remedy's card,
 * and, for a button only the card has, from that card: an approval is consent to the plan the person
 * was shown, so a click on one card whose value names another remedy approves neither. A signed click
 * that fails either is refused and audited; an unknown request is left to the coordinator, which says
 * it is no longer known. Records made before the workspace was kept are checked by channel alone, and
 * a card whose ts is not kept yet (a click within moments of its posting) by channel and workspace.
 */
export async function refuseIfNotFromCard(deps: HandlerDeps, requestId: string, body: BlockButtonAction, origin: CardOrigin = {}): Promise<string | undefined> {
  const request = await deps.coordinator.store.get(requestId);
  if (!request) return undefined;
  const card = JSON.parse(request.context) as Partial<SlackThread>;
  const channel = clickChannel(body);
  const team = clickTeam(body);
  const message = clickMessage(body);
  const elsewhere = channel !== card.channel || (card.team !== undefined && team !== card.team);
  const otherCard = !elsewhere && origin.onCard === true && card.cardTs !== undefined && message !== card.cardTs;
  if (!elsewhere && !otherCard) return undefined;
  const detail = elsewhere
    ? `a click from channel ${channel ?? '?'} of workspace ${team ?? '?'}, not the card's (${card.channel ?? '?'} of ${card.team ?? '?'})`
    : `a click on message ${message ?? '?'}, not on this remedy's approval card (${card.cardTs})`;
  deps.logger.warn({ requestId, user: body.user.id, channel, team, message }, elsewhere ? 'refused a click from outside its card' : 'refused a click on another card');
  await deps.coordinator.audit
    .append({ action: 'refused', who: body.user.id, requestId, entryId: request.entryId, cluster: request.cluster, stageId: request.stageId, detail })
    .catch((err: unknown) => deps.logger.error({ err: (err as Error).message }, 'could not append to the audit trail'));
  return elsewhere ? notFromCard : notThisCard;
}
