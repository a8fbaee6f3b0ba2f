import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { findCluster } from '../../config.js';
import { buildUpgradeCommand, upgradeRequestErrors, upgradeRequestSchema, type FieldErrors, type UpgradeRequest } from '../../values/upgrade.js';
import { upgradeCommandBlocks, type UpgradeModalMetadata } from '../../views/slack/values.js';
import type { HandlerDeps } from '../deps.js';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
type StateValues = ViewSubmitAction['view']['state']['values'];

/** The request the modal's fields make, or the errors to show next to them. */
export function requestFromState(values: StateValues): { ok: true; request: UpgradeRequest; cluster?: string } | { ok: false; errors: FieldErrors & { cluster?: string } } {
  const field = (block: string) => values[block]?.value;
  const text = (block: string) => field(block)?.value ?? undefined;
  const parsed = upgradeRequestSchema.safeParse({
    provider: field('provider')?.selected_option?.value,
    logsBucket: text('logsBucket'),
    cacheBucket: text('cacheBucket'),
    logsRegion: text('logsRegion'),
    cacheRegion: text('cacheRegion'),
    iamRole: (field('iamRole')?.selected_options ?? []).some((o) => o.value === 'yes'),
    endpoint: text('endpoint'),
    azureAccount: text('azureAccount'),
    azureLogsContainer: text('azureLogsContainer'),
    azureCacheContainer: text('azureCacheContainer'),
    volumeSize: text('volumeSize'),
  });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
    return { ok: false, errors };
  }
  const errors = upgradeRequestErrors(parsed.data);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const cluster = field('cluster')?.selected_option?.value;
  return { ok: true, request: parsed.data, ...(cluster ? { cluster } : {}) };
}

function metadataOf(text: string): UpgradeModalMetadata | undefined {
  try {
    const m = JSON.parse(text) as Partial<UpgradeModalMetadata>;
    return typeof m.c === 'string' ? { c: m.c } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The modal's submission: bad fields get `response_action: 'errors'` (the modal stays open); a good one
 * closes it, and the command is posted to the person alone in the channel they asked from.
 */
export function valuesUpgradeSubmission(deps: HandlerDeps) {
  return async function submitValuesUpgrade({ ack, body, view }: Args): Promise<void> {
    const read = requestFromState(view.state.values);
    if (!read.ok) return ack({ response_action: 'errors', errors: read.errors as Record<string, string> });
    await ack();
    const cluster = findCluster(deps.config, read.cluster ?? deps.config.defaultCluster) ?? deps.config.clusters[0]!;
    const answer = upgradeCommandBlocks(read.request, buildUpgradeCommand(read.request, cluster));
    const channel = metadataOf(view.private_metadata)?.c;
    // Without a channel (metadata lost), or where Slack does not show the command there (a channel the bot is not
    // in, where the command works all the same), a direct message to the person is the private place left.
    if (channel) {
      try {
        await deps.outbox.remedy.postEphemeral({ channel, user: body.user.id, text: answer.text, blocks: answer.blocks });
        return;
      } catch (err) {
        deps.logger.warn({ err: (err as Error).message, channel }, 'could not show the upgrade command in its channel; sending it in a direct message');
      }
    }
    try {
      await deps.outbox.remedy.postMessage({ channel: body.user.id, text: answer.text, blocks: answer.blocks });
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message }, 'could not post the upgrade command');
    }
  };
}
