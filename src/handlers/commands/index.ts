import type { App } from '@slack/bolt';
import type { HandlerDeps } from '../deps.js';
import { platformCommand } from './platform.js';

/** Registers the slash commands. */
export function registerCommands(app: App, deps: HandlerDeps): void {
  app.command('/platform', platformCommand(deps));
}
