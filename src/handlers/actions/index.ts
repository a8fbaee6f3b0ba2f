import type { App, BlockButtonAction } from '@slack/bolt';
import { actionIds, chooseActionPattern } from '../blocks/remedy.js';
import type { HandlerDeps } from '../deps.js';
import { approveButton, chooseButton, denyButton, replanButton } from './remedy-buttons.js';

/** Registers the buttons of approval cards and decision points. */
export function registerActions(app: App, deps: HandlerDeps): void {
  app.action<BlockButtonAction>(actionIds.approve, approveButton(deps));
  app.action<BlockButtonAction>(actionIds.deny, denyButton(deps));
  app.action<BlockButtonAction>(chooseActionPattern, chooseButton(deps));
  app.action<BlockButtonAction>(actionIds.replan, replanButton(deps));
}
