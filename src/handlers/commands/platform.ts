import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { closestIds, findEntry } from '../../catalogue/index.js';
import { parseCommand } from '../../commands/parse.js';
import { findCluster } from '../../config.js';
import { RedisUnavailableError } from '../../jobs/redis.js';
import { helpBlocks, listBlocks, unknownEntryBlocks } from '../blocks/catalogue.js';
import { esc } from '../blocks/kit.js';
import { rootText } from '../blocks/remedy.js';
import type { HandlerDeps } from '../deps.js';

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/**
 * `/platform …`. Everything that can be answered at once is answered in the ack; a fix is acked at
 * once and its slow work (posting, queueing) happens after.
 */
export function platformCommand(deps: HandlerDeps) {
  const { config, coordinator, logger } = deps;
  return async function platform({ command, ack, respond, client }: Args): Promise<void> {
    const parsed = parseCommand(command.text);
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
      case 'fix':
        break;
    }
    const entry = findEntry(parsed.entryId);
    if (!entry) {
      const closest = closestIds(parsed.entryId);
      return ack({ response_type: 'ephemeral', text: `There is no remedy \`${esc(parsed.entryId)}\`. Closest: ${closest.join(', ')}.`, blocks: unknownEntryBlocks(parsed.entryId, closest) });
    }
    const cluster = parsed.cluster ?? config.defaultCluster;
    if (!findCluster(config, cluster)) {
      return ack({ response_type: 'ephemeral', text: `There is no cluster \`${esc(cluster)}\`. Configured clusters: ${clusters.map((c) => `\`${c}\``).join(', ')}.` });
    }
    await ack();

    let root: string | undefined;
    try {
      const posted = await client.chat.postMessage({ channel: command.channel_id, text: rootText(entry, cluster, command.user_id) });
      root = posted.ts;
    } catch (err) {
      logger.warn({ err: (err as Error).message, channel: command.channel_id }, 'could not post the root message');
      await respond({ response_type: 'ephemeral', text: 'I cannot post in this channel. Invite me first (`/invite @platform-medic`), or use a channel I am in.' });
      return;
    }
    try {
      const started = await coordinator.requestFix({ entryId: entry.id, cluster, requestedBy: command.user_id, context: { channel: command.channel_id, threadTs: root! } });
      if (!started.ok) await client.chat.postMessage({ channel: command.channel_id, thread_ts: root!, text: started.message });
    } catch (err) {
      const unreachable = err instanceof RedisUnavailableError || /ECONNREFUSED|Connection is closed|max retries/i.test((err as Error).message);
      logger.error({ err: (err as Error).message }, 'could not start the fix');
      await client.chat.postMessage({
        channel: command.channel_id,
        thread_ts: root!,
        text: unreachable
          ? '❌ Could not queue the plan: the queue (Redis) is unreachable. Nothing was done; ask again once it is back.'
          : '❌ Could not start the fix because of an internal error; nothing was done. The bot\'s log has the details.',
      });
    }
  };
}
