import type { App } from '@slack/bolt';
import type { HandlerDeps } from '../deps.js';
import { platformCommand } from './platform.js';

/** The bot's one slash command (deploy/slack-app-manifest.yaml). */
export const platformCommandName = '/platform';

/** Registers the slash commands. */
export function registerCommands(app: App, deps: HandlerDeps): void {
  app.command(platformCommandName, platformCommand(deps));
}
