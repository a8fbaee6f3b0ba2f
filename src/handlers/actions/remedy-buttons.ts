import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Answer } from '../../remedies/coordinator.js';
import type { ChoiceRef, PlanRef } from '../blocks/remedy.js';
import type { HandlerDeps } from '../deps.js';

type Args = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

function parseRef<T>(value: string | undefined, keys: readonly (keyof T)[]): T | undefined {
  try {
    const v = JSON.parse(value ?? '') as Record<string, unknown>;
    return keys.every((k) => typeof v[k as string] === 'string') ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A remedy button: acked at once; the decision is then taken by the coordinator, and a refusal goes
 * only to the person who clicked (the card does not change).
 */
function remedyButton(deps: HandlerDeps, name: string, decide: (user: string, value: string | undefined) => Promise<Answer>) {
  const listener = async ({ ack, body, action, respond }: Args): Promise<void> => {
    await ack();
    let answer: Answer;
    try {
      answer = await decide(body.user.id, action.value);
    } catch (err) {
      deps.logger.error({ err: (err as Error).message, action: name }, 'button failed');
      answer = { ok: false, message: 'That did not work: the queue (Redis) or the bot had a problem. Nothing was done; try again.' };
    }
    if (!answer.ok) await respond({ response_type: 'ephemeral', replace_original: false, text: answer.message });
  };
  Object.defineProperty(listener, 'name', { value: name });
  return listener;
}

const bad: Answer = { ok: false, message: 'This button is malformed; nothing was done.' };

/** A card posted before approval attempts existed carries a plan hash instead: it is an older plan. */
function stale(value: string | undefined): Answer {
  return parseRef<{ r: string; s: string; h: string }>(value, ['r', 's', 'h']) ? { ok: false, message: 'This card shows an older plan; use the newest card in the thread.' } : bad;
}

export const approveButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'approveButton', async (user, value) => {
    const ref = parseRef<PlanRef>(value, ['r', 's', 'a']);
    return ref ? deps.coordinator.approve(ref.r, ref.s, ref.a, user) : stale(value);
  });

export const denyButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'denyButton', async (user, value) => {
    const ref = parseRef<PlanRef>(value, ['r', 's', 'a']);
    return ref ? deps.coordinator.deny(ref.r, ref.s, ref.a, user) : stale(value);
  });

export const chooseButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'chooseButton', async (user, value) => {
    const ref = parseRef<Omit<ChoiceRef, 'a'> & { a?: string }>(value, ['r', 's', 'c']);
    return ref ? deps.coordinator.choose(ref.r, ref.s, ref.c, user, typeof ref.a === 'string' ? ref.a : undefined) : bad;
  });

export const replanButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'replanButton', async (user, value) => {
    const ref = parseRef<PlanRef>(value, ['r', 's']);
    return ref ? deps.coordinator.replan(ref.r, ref.s, user) : bad;
  });

export const cancelButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'cancelButton', async (user, value) => {
    try {
      const v = JSON.parse(value ?? '') as { r?: unknown };
      return typeof v.r === 'string' ? deps.coordinator.cancel(v.r, user) : bad;
    } catch {
      return bad;
    }
  });
