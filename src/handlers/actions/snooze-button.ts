import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Answer } from '../../jobs/lifecycle/coordinator.js';
import type { HandlerDeps } from '../deps.js';

type Args = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

const malformed: Answer = { ok: false, message: 'This button is malformed; nothing was done.' };

/** The entry and cluster a Snooze button names, when its value is exactly that: two well-formed ids. */
function snoozeRef(value: string | undefined): { e: string; c: string } | undefined {
  try {
    const v = JSON.parse(value ?? '') as Record<string, unknown>;
    const ok = typeof v.e === 'string' && /^[a-z0-9-]{1,64}$/.test(v.e) && typeof v.c === 'string' && /^[a-z0-9-]{1,42}$/.test(v.c);
    return ok ? { e: v.e as string, c: v.c as string } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "Snooze 24 h" under a scheduled doctor's post: the watch checks the symptom, the channel and who
 * clicked (an approver of the cluster, or the person who asked to fix it). A refusal or a forged
 * value gets an answer only the person sees; a snooze is said in the post's thread.
 */
export function snoozeButton(deps: HandlerDeps) {
  return async function snooze({ ack, body, action, respond }: Args): Promise<void> {
    await ack();
    let answer: Answer;
    try {
      const ref = snoozeRef(action.value);
      const channel = body.channel?.id ?? (body.container as { channel_id?: string } | undefined)?.channel_id;
      if (!ref) answer = malformed;
      else if (!deps.watch) answer = { ok: false, message: 'The scheduled doctor is off here (no cluster has a `doctor.channel`); nothing was done.' };
      else answer = await deps.watch.snooze(ref.c, ref.e, body.user.id, channel);
    } catch (err) {
      deps.logger.error({ err: (err as Error).message, action: 'snoozeButton' }, 'button failed');
      answer = { ok: false, message: 'That did not work: the queue (Redis) or the bot had a problem. Nothing was done; try again.' };
    }
    if (!answer.ok) await respond({ response_type: 'ephemeral', replace_original: false, text: answer.message });
  };
}
