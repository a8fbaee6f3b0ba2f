import type { AllMiddlewareArgs, App, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { watchActionIds } from '../../core/doctor-watch.js';
import { explainActionPattern, matchActionIds } from '../../views/slack/match.js';
import { actionIds, chooseActionPattern } from '../../views/slack/remedy.js';
import type { HandlerDeps } from '../deps.js';
import { explainButton, planFixButton } from './match-buttons.js';
import { approveButton, cancelButton, chooseButton, denyButton, replanButton } from './remedy-buttons.js';
import { snoozeButton } from './snooze-button.js';

type Args = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;
type ButtonListener = (args: Args) => Promise<void>;

/** Which named listener a button's action id goes to: an exact id, or a pattern of ids. */
type Route = readonly [id: string | RegExp, listener: ButtonListener];

/** The buttons of approval cards, decision points, match answers and the scheduled doctor's posts. */
function buttonRoutes(deps: HandlerDeps): readonly Route[] {
  return [
    [actionIds.approve, approveButton(deps)],
    [actionIds.deny, denyButton(deps)],
    [chooseActionPattern, chooseButton(deps)],
    [actionIds.replan, replanButton(deps)],
    [actionIds.cancel, cancelButton(deps)],
    [matchActionIds.planFix, planFixButton(deps)],
    [explainActionPattern, explainButton(deps)],
    [watchActionIds.snooze, snoozeButton(deps)],
  ];
}

/**
 * Registers the buttons as one Bolt listener that hands each click to its named listener. Bolt runs
 * every request (commands and clicks alike) through the middleware of every registration, and keeps
 * what that builds until the slowest listener returns: eight registrations cost every request eight
 * such chains. A click on a button no route knows is left unacknowledged here, so it is still
 * answered as unknown (AnsweringApp).
 */
export function registerActions(app: App, deps: HandlerDeps): void {
  const routes = buttonRoutes(deps);
  const route = (actionId: string) => routes.find(([id]) => (typeof id === 'string' ? id === actionId : id.test(actionId)))?.[1];
  app.action<BlockButtonAction>({ type: 'block_actions' }, async function button(args) {
    await route(args.action.action_id)?.(args);
  });
}
