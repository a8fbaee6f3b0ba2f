import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Answer } from '../../jobs/lifecycle/coordinator.js';
import type { ChoiceRef, PlanRef } from '../../views/slack/remedy.js';
import type { HandlerDeps } from '../deps.js';
import { refuseIfNotFromCard, type CardOrigin } from './card-origin.js';

type Args = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

function parseRef<T>(value: string | undefined, keys: readonly (keyof T)[]): T | undefined {
  try {
    const v = JSON.parse(value ?? '') as Record<string, unknown>;
    return keys.every((k) => typeof v[k as string] === 'string') ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}

/** What a button's value names: the remedy, and the decision to take on it for the person who clicked. */
interface ButtonIntent extends CardOrigin {
  readonly requestId: string;
  decide(user: string): Promise<Answer>;
  /** A decision taken can still need words for the person who clicked (a cancel that waits for the running step). */
  readonly tellDone?: true;
}

/**
 * A remedy button: acked at once; a click from outside the card's channel and workspace (or, for
 * Approve and Deny, from another card) is refused; otherwise the decision is taken by the coordinator. A refusal goes only to the person who clicked
 * (the card does not change).
 */
function remedyButton(deps: HandlerDeps, name: string, intent: (value: string | undefined) => ButtonIntent | undefined) {
  const listener = async ({ ack, body, action, respond }: Args): Promise<void> => {
    await ack();
    let answer: Answer;
    let tellDone = false;
    try {
      const wanted = intent(action.value);
      tellDone = wanted?.tellDone === true;
      const refusal = wanted && (await refuseIfNotFromCard(deps, wanted.requestId, body, wanted));
      answer = !wanted ? bad : refusal ? { ok: false, message: refusal } : await wanted.decide(body.user.id);
    } catch (err) {
      deps.logger.error({ err: (err as Error).message, action: name }, 'button failed');
      answer = { ok: false, message: 'That did not work: the queue (Redis) or the bot had a problem. Nothing was done; try again.' };
    }
    const words = answer.ok ? (tellDone ? answer.message : undefined) : answer.message;
    if (words) await respond({ response_type: 'ephemeral', replace_original: false, text: words });
  };
  Object.defineProperty(listener, 'name', { value: name });
  return listener;
}

const bad: Answer = { ok: false, message: 'This button is malformed; nothing was done.' };

/** A card posted before approval attempts existed carries a plan hash instead: it is an older plan. */
function stale(value: string | undefined): ButtonIntent | undefined {
  const old = parseRef<{ r: string; s: string; h: string }>(value, ['r', 's', 'h']);
  return old && { requestId: old.r, decide: () => Promise.resolve({ ok: false, message: 'This card shows an older plan; use the newest card in the thread.' }) };
}

export const approveButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'approveButton', (value) => {
    const ref = parseRef<PlanRef>(value, ['r', 's', 'a']);
    return ref ? { requestId: ref.r, onCard: true, decide: (user) => deps.coordinator.approve(ref.r, ref.s, ref.a, user) } : stale(value);
  });

export const denyButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'denyButton', (value) => {
    const ref = parseRef<PlanRef>(value, ['r', 's', 'a']);
    return ref ? { requestId: ref.r, onCard: true, decide: (user) => deps.coordinator.deny(ref.r, ref.s, ref.a, user) } : stale(value);
  });

export const chooseButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'chooseButton', (value) => {
    const ref = parseRef<Omit<ChoiceRef, 'a'> & { a?: string }>(value, ['r', 's', 'c']);
    return ref && { requestId: ref.r, decide: (user) => deps.coordinator.choose(ref.r, ref.s, ref.c, user, typeof ref.a === 'string' ? ref.a : undefined) };
  });

export const replanButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'replanButton', (value) => {
    const ref = parseRef<PlanRef>(value, ['r', 's']);
    return ref && { requestId: ref.r, decide: (user) => deps.coordinator.replan(ref.r, ref.s, user) };
  });

export const cancelButton = (deps: HandlerDeps) =>
  remedyButton(deps, 'cancelButton', (value) => {
    const ref = parseRef<{ r: string }>(value, ['r']);
    return ref && { requestId: ref.r, tellDone: true, decide: (user) => deps.coordinator.cancel(ref.r, user) };
  });
