import type { App, BlockButtonAction } from '@slack/bolt';
import { watchActionIds } from '../../core/doctor-watch.js';
import { explainActionPattern, matchActionIds } from '../../views/slack/match.js';
import { actionIds, chooseActionPattern } from '../../views/slack/remedy.js';
import type { HandlerDeps } from '../deps.js';
import { explainButton, planFixButton } from './match-buttons.js';
import { approveButton, cancelButton, chooseButton, denyButton, replanButton } from './remedy-buttons.js';
import { snoozeButton } from './snooze-button.js';

/** Registers the buttons of approval cards, decision points, match answers and the scheduled doctor's posts. */
export function registerActions(app: App, deps: HandlerDeps): void {
  app.action<BlockButtonAction>(actionIds.approve, approveButton(deps));
  app.action<BlockButtonAction>(actionIds.deny, denyButton(deps));
  app.action<BlockButtonAction>(chooseActionPattern, chooseButton(deps));
  app.action<BlockButtonAction>(actionIds.replan, replanButton(deps));
  app.action<BlockButtonAction>(actionIds.cancel, cancelButton(deps));
  app.action<BlockButtonAction>(matchActionIds.planFix, planFixButton(deps));
  app.action<BlockButtonAction>(explainActionPattern, explainButton(deps));
  app.action<BlockButtonAction>(watchActionIds.snooze, snoozeButton(deps));
}
