import { matchView } from '../../core/match.js';
import type { MatchResult } from '../../matching/index.js';
import { slackMessage } from './answer.js';
import type { Block } from './kit.js';

export { explainActionPattern, matchActionIds, type PlanFixRef } from '../../core/match.js';

/** The answer to a paste, as a Slack message. */
export const matchAnswer = (result: MatchResult): { text: string; blocks: Block[] } => slackMessage(matchView(result));
