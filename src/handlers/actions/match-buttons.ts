import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { findEntry } from '../../catalogue/index.js';
import { explainBlocks } from '../../views/slack/explain.js';
import type { HandlerDeps } from '../deps.js';
import { checkFixAsk, startFix } from '../start-fix.js';
import { clickTeam } from './card-origin.js';

type Args = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

function entryOf(value: string | undefined): string | undefined {
  try {
    const v = JSON.parse(value ?? '') as { e?: unknown };
    return typeof v.e === 'string' ? v.e : undefined;
  } catch {
    return undefined;
  }
}

/** The cluster a doctor's "Plan fix" saw the symptom on (absent on a match answer's). */
function clusterOf(value: string | undefined): string | undefined {
  try {
    const v = JSON.parse(value ?? '') as { c?: unknown };
    return typeof v.c === 'string' ? v.c : undefined;
  } catch {
    return undefined;
  }
}

/** The values of the fix's parameters a doctor's "Plan fix" carries (what its evidence showed); the fix checks them as typed ones. */
function paramsOf(value: string | undefined): Record<string, string> | undefined {
  try {
    const v = JSON.parse(value ?? '') as { p?: unknown };
    if (typeof v.p !== 'object' || v.p === null || Array.isArray(v.p)) return undefined;
    const entries = Object.entries(v.p);
    return entries.length > 0 && entries.every(([, x]) => typeof x === 'string') ? (Object.fromEntries(entries) as Record<string, string>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "Plan fix" under a match answer: plans the entry's fix in the same thread (or, from an answer only
 * the person could see, in a new message of the channel).
 */
export function planFixButton(deps: HandlerDeps) {
  return async function planFix({ ack, body, action, respond }: Args): Promise<void> {
    await ack();
    const entryId = entryOf(action.value);
    const cluster = clusterOf(action.value);
    const params = paramsOf(action.value);
    const given = { ...(cluster ? { cluster } : {}), ...(params ? { params } : {}) };
    const problem = entryId ? checkFixAsk(deps, { entryId, ...given }) : 'This button is malformed; nothing was done.';
    if (problem || !entryId) {
      await respond({ response_type: 'ephemeral', replace_original: false, text: problem ?? 'This button is malformed; nothing was done.' });
      return;
    }
    const container = body.container as { is_ephemeral?: boolean; thread_ts?: string; message_ts?: string };
    const message = body.message as { ts?: string; thread_ts?: string } | undefined;
    const threadTs = container.is_ephemeral ? undefined : (message?.thread_ts ?? message?.ts);
    const team = clickTeam(body);
    const refusal = await startFix(deps, { entryId, ...given, user: body.user.id, channel: body.channel?.id ?? '', ...(team ? { team } : {}), ...(threadTs ? { threadTs } : {}) });
    if (refusal) await respond({ response_type: 'ephemeral', replace_original: false, text: refusal });
  };
}

/** "Explain" on a match answer: the entry, to the person alone. */
export function explainButton(_deps: HandlerDeps) {
  return async function explain({ ack, action, respond }: Args): Promise<void> {
    await ack();
    const entry = findEntry(entryOf(action.value) ?? '');
    if (!entry) {
      await respond({ response_type: 'ephemeral', replace_original: false, text: 'This entry is not in the catalogue any more.' });
      return;
    }
    await respond({ response_type: 'ephemeral', replace_original: false, text: entry.title, blocks: explainBlocks(entry) });
  };
}
