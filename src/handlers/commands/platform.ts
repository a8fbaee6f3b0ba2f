import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { closestIds, findEntry } from '../../catalogue/index.js';
import { parseCommand } from '../../core/parse.js';
import { match } from '../../matching/index.js';
import { helpBlocks, listBlocks, unknownEntryBlocks } from '../../views/slack/catalogue.js';
import { auditBlocks } from '../../views/slack/audit.js';
import { explainBlocks } from '../../views/slack/explain.js';
import { esc } from '../../views/slack/kit.js';
import { matchAnswer } from '../../views/slack/match.js';
import type { HandlerDeps } from '../deps.js';
import { checkFixAsk, startFix } from '../start-fix.js';
import { valuesCommand } from '../values/index.js';

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/**
 * `/platform …`. Everything that can be answered at once is answered in the ack; a fix is acked at
 * once and its slow work (posting, queueing) happens after.
 */
export function platformCommand(deps: HandlerDeps) {
  const { config } = deps;
  return async function platform({ command, ack, respond }: Args): Promise<void> {
    // A signed command may come without its text field; it is then the bare command.
    const parsed = parseCommand(command.text ?? '');
    const clusters = config.clusters.map((c) => c.name);
    switch (parsed.kind) {
      case 'help':
        return ack({ response_type: 'ephemeral', text: 'platform-medic help', blocks: helpBlocks(clusters, config.defaultCluster) });
      case 'list':
        return ack({ response_type: 'ephemeral', text: 'The catalogue of remedies', blocks: listBlocks() });
      case 'usage':
        return ack({ response_type: 'ephemeral', text: parsed.message });
      case 'unknown':
        return ack({ response_type: 'ephemeral', text: `Unknown command \`${esc(parsed.word)}\`. Try \`/platform help\`.`, blocks: helpBlocks(clusters, config.defaultCluster) });
      case 'explain': {
        const entry = findEntry(parsed.entryId);
        if (!entry) {
          const closest = closestIds(parsed.entryId);
          return ack({ response_type: 'ephemeral', text: `There is no entry \`${esc(parsed.entryId)}\`.${closest.length > 0 ? ` Closest: ${closest.join(', ')}.` : ''}`, blocks: unknownEntryBlocks(parsed.entryId, closest) });
        }
        return ack({ response_type: 'ephemeral', text: entry.title, blocks: explainBlocks(entry) });
      }
      case 'match': {
        // Matching a slash command's text (Slack caps it at a few KB) takes well under a millisecond.
        const result = match(parsed.text);
        deps.metrics?.matched(result);
        const answer = matchAnswer(result);
        return ack({ response_type: 'ephemeral', text: answer.text, blocks: answer.blocks });
      }
      case 'audit': {
        // Each approver reads the records of the clusters they approve on, and no other cluster's.
        const scope = await deps.coordinator.approvableClusters(command.user_id);
        if (scope.clusters.length === 0) return ack({ response_type: 'ephemeral', text: `Only approvers can read the audit trail.${scope.note ? ` ${scope.note}` : ''}` });
        const every = scope.clusters.length === config.clusters.length;
        // Records of no configured cluster (an unknown entry or cluster asked for) are for those who approve everywhere.
        const records = await deps.coordinator.audit.latest(parsed.count, (r) => (r.cluster && clusters.includes(r.cluster) ? scope.clusters.includes(r.cluster) : every));
        return ack({ response_type: 'ephemeral', text: `Audit trail (newest ${records.length})`, blocks: auditBlocks(records, every ? undefined : scope.clusters) });
      }
      case 'values':
        return valuesCommand(deps, parsed, { command, ack });
      case 'fix':
        break;
    }
    const problem = checkFixAsk(deps, parsed);
    if (problem) {
      const entry = findEntry(parsed.entryId);
      return ack(entry ? { response_type: 'ephemeral', text: problem } : { response_type: 'ephemeral', text: problem, blocks: unknownEntryBlocks(parsed.entryId, closestIds(parsed.entryId)) });
    }
    await ack();
    const refusal = await startFix(deps, {
      entryId: parsed.entryId,
      ...(parsed.cluster ? { cluster: parsed.cluster } : {}),
      params: parsed.params,
      user: command.user_id,
      channel: command.channel_id,
      team: command.team_id,
    });
    if (refusal) await respond({ response_type: 'ephemeral', text: refusal });
  };
}
