import type { App, ViewSubmitAction } from '@slack/bolt';
import { valuesUpgradeCallbackId } from '../../views/slack/values.js';
import type { HandlerDeps } from '../deps.js';
import { valuesUpgradeSubmission } from './submit.js';

export { openUpgradeModal } from './command.js';

/**
 * Registers the listeners of the values assistant that are not the slash command itself (which
 * `/platform` routes to valuesCommand): the upgrade modal's submission.
 */
export function registerValues(app: App, deps: HandlerDeps): void {
  app.view<ViewSubmitAction>(valuesUpgradeCallbackId, valuesUpgradeSubmission(deps));
}
