import type { PlanWhere } from '../core/catalogue.js';
import { t } from '../core/view.js';

/**
 * Where a fix is planned, said on the command line (`list`, `explain`), which plans nothing itself: the line the
 * terminal takes first, as the reader is at a shell, then Slack's slash command, named as Slack's.
 */
export const planFromCommandLine: PlanWhere = (fixLine) => t`with "${fixLine}" in the terminal (npm start), or "/platform ${fixLine}" in Slack`;
