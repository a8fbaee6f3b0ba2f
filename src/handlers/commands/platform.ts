import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { findEntry } from '../../catalogue/index.js';
import { answerCommand, doctorAnswer, ifReady, parseCommand, type PlatformCommand } from '../../core/index.js';
import { slackMessage } from '../../views/slack/answer.js';
import type { HandlerDeps } from '../deps.js';
import { startFix } from '../start-fix.js';
import { openUpgradeModal } from '../values/command.js';
import { fromSlackText, typedText } from '../slack-text.js';

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/**
 * Answers that depend on the catalogue and the configuration alone (help, list, explain of an entry
 * that exists): the same for everyone while the process runs, so each is rendered once. They are
 * most of the commands people type, and rendering one took 80–150 µs of every acknowledgement.
 */
function catalogueKey(parsed: PlatformCommand): string | undefined {
  if (parsed.kind === 'help' || parsed.kind === 'list') return parsed.kind;
  return parsed.kind === 'explain' && findEntry(parsed.entryId) ? `explain:${parsed.entryId}` : undefined;
}

/**
 * `/platform …`: the core parses and checks the command and answers it; this listener renders the
 * answer in the ack. A fix is acked at once and its slow work (posting, queueing) happens after.
 */
export function platformCommand(deps: HandlerDeps) {
  const { config } = deps;
  const rendered = new Map<string, ReturnType<typeof slackMessage>>();
  return async function platform({ command, ack, respond }: Args): Promise<void> {
    // A signed command may come without its text field; it is then the bare command.
    const parsed = parseCommand(command.text ?? '');
    const key = catalogueKey(parsed);
    const known = key === undefined ? undefined : rendered.get(key);
    if (known) return ack({ response_type: 'ephemeral', ...known });
    // Slack escapes &, < and > and wraps links: every command is read as the person typed it (an unknown cluster
    // `a&b` is named as typed, not as `a&amp;b`), a paste with its mentions left out.
    const asTyped =
      parsed.kind === 'values' && parsed.action === 'check'
        ? { ...parsed, text: fromSlackText(parsed.text) }
        : parsed.kind === 'match'
          ? { ...parsed, text: typedText(fromSlackText(parsed.text, { mentions: 'drop' })) }
          : parseCommand(fromSlackText(command.text ?? ''));
    const answer = await answerCommand(asTyped, {
      config,
      desk: deps.coordinator,
      user: command.user_id,
      evidence: deps.pasteEvidence,
      ...(deps.metrics ? { matched: (r) => deps.metrics?.matched(r) } : {}),
    });
    if (answer.kind === 'view') {
      const message = slackMessage(answer.view);
      if (key !== undefined) rendered.set(key, message);
      return ack({ response_type: 'ephemeral', ...message });
    }
    if (answer.kind === 'paste') {
      // The text's answer at once, to the person alone; the same answer with the cluster's evidence replaces it
      // (or is the answer, when the findings were read for another paste a moment ago).
      const ready = await ifReady(answer.reply.later);
      await ack({ response_type: 'ephemeral', ...slackMessage(ready?.view ?? answer.view) });
      const evidenced = ready ? undefined : await answer.reply.later;
      if (evidenced) await respond({ response_type: 'ephemeral', replace_original: true, ...slackMessage(evidenced.view) });
      return;
    }
    await ack();
    if (answer.kind === 'upgrade-form') return openUpgradeModal(deps, command, respond);
    if (answer.kind === 'doctor') {
      // A full scan of the cluster each: a person's doctors are counted (concurrent ones share a scan anyway).
      const admitted = await deps.coordinator.admitDoctor(command.user_id, answer.cluster).catch((err: unknown) => {
        deps.logger.warn({ err: (err as Error).message }, 'could not count a doctor request');
        return { ok: false as const, message: 'The doctor did not run: the queue (Redis) did not answer. Try again in a moment.' };
      });
      if (!admitted.ok) return void (await respond({ response_type: 'ephemeral', text: admitted.message }));
      // Read-only and slow (a worker reads the cluster): acked first, answered in the channel when done.
      const found = await doctorAnswer(deps.coordinator, answer.cluster, command.user_id);
      await respond({ response_type: 'in_channel', ...slackMessage(found) });
      return;
    }
    const refusal = await startFix(deps, { ...answer.ask, user: command.user_id, channel: command.channel_id, team: command.team_id });
    if (refusal) await respond({ response_type: 'ephemeral', text: refusal });
  };
}
