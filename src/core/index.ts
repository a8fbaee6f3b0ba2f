import type { Config } from '../config.js';
import { findCluster } from '../config.js';
import { match, type MatchResult } from '../matching/index.js';
import { auditAnswer, type AuditDesk } from './audit.js';
import { explainAnswer, helpView, listView } from './catalogue.js';
import { checkDoctor } from './doctor.js';
import { checkFix, type FixAsk } from './fix.js';
import type { ClusterEvidenceCache } from './evidence-cache.js';
import { replyToPaste, type PasteReply } from './paste.js';
import { COMMAND_WORDS, parseCommand, type PlatformCommand } from './parse.js';
import { cancelAnswer, type CancelDesk } from './cancel.js';
import { statusAnswer, type StatusDesk } from './status.js';
import { upgradeAnswer, valuesCheckAnswer } from './values.js';
import { code, command, note, says, t, ticked, type Part, type View } from './view.js';
import { closestWord, editDistance } from '../spelling.js';

export { parseCommand, type PlatformCommand } from './parse.js';
export { doctorAnswer, doctorView, type DoctorDesk } from './doctor.js';
export { ClusterEvidenceCache, evidenceCacheOptions } from './evidence-cache.js';
export { ifReady, replyToPaste, type Evidenced, type PasteReply } from './paste.js';

/** What the core needs to answer a command: the configuration, the queue side, who asks. */
export interface CommandContext {
  readonly config: Config;
  readonly desk: AuditDesk & StatusDesk & CancelDesk;
  /** Who asks: a Slack user id, or the terminal's operator. */
  readonly user: string;
  /** Counts match answers by entry. */
  readonly matched?: (result: MatchResult) => void;
  /** Parts a surface adds to help (the terminal's own commands). */
  readonly helpExtra?: readonly Part[];
  /**
   * A plain-text surface (the terminal): a line that is no command is a paste to match, not an unknown
   * command, and the upgrade command is asked by flags rather than a form.
   */
  readonly plainText?: boolean;
  /** Reads the cluster for a paste's candidates; without it a paste gets the text's answer alone. */
  readonly evidence?: ClusterEvidenceCache;
}

/**
 * A command's answer, for a surface to render: a view, or a fix that passed the checks (the surface
 * acknowledges, then starts it with `requestFix`), or the upgrade form Slack shows as a modal.
 */
export type CommandAnswer =
  | { kind: 'view'; view: View }
  | { kind: 'fix'; ask: Required<Pick<FixAsk, 'entryId'>> & FixAsk; view?: undefined }
  | { kind: 'upgrade-form' }
  /** A doctor on a checked cluster: the surface acknowledges, then runs it with `doctorAnswer` (it takes a few seconds). */
  | { kind: 'doctor'; cluster: string; view?: undefined }
  /** A paste's answer: `view` at once, then `reply.later` (the cluster's evidence) when it arrives. */
  | { kind: 'paste'; view: View; reply: PasteReply };

const view = (v: View): CommandAnswer => ({ kind: 'view', view: v });

/** The answer to a paste: the match, counted; the cluster's evidence follows when there is a cluster to read. */
export function pasteAnswer(text: string, ctx: Pick<CommandContext, 'matched' | 'config' | 'evidence' | 'user'>, meant?: string): CommandAnswer {
  const result = match(text);
  ctx.matched?.(result);
  const reply = replyToPaste(result, text, ctx);
  // A terminal line that matched nothing and reads as a mistyped command stays a paste (as the help says), with the command it may have meant.
  const first = meant && result.verdict === 'no-match' && !('tried' in result) && result.note !== 'binary' ? { ...reply.first, parts: [...reply.first.parts, note(t`If you meant the command, type ${code(meant)}.`)] } : reply.first;
  return reply.later ? { kind: 'paste', view: first, reply } : view(first);
}

/** Answers a parsed command: checked once, the same on every surface. */
export async function answerCommand(parsed: PlatformCommand, ctx: CommandContext, line = ''): Promise<CommandAnswer> {
  const { config } = ctx;
  switch (parsed.kind) {
    case 'help':
      return view(helpView(config.clusters.map((c) => c.name), config.defaultCluster, ctx.helpExtra, ctx.plainText));
    case 'list':
      return view(listView());
    case 'usage':
      return view(says(ticked(parsed.message, parsed.quotes ? 'code' : 'command')));
    case 'unknown': {
      const meant = meantCommand(parsed.word, line);
      if (ctx.plainText) return pasteAnswer(line, ctx, meant);
      const near = meant ? t` Did you mean ${code(`/platform ${meant}`)}?` : '';
      return view({ ...helpView(config.clusters.map((c) => c.name), config.defaultCluster, ctx.helpExtra, ctx.plainText), summary: t`Unknown command ${code(parsed.word)}.${near} Try ${command('/platform help')}.` });
    }
    case 'explain':
      return view(explainAnswer(parsed.entryId));
    case 'match':
      return pasteAnswer(parsed.text, ctx);
    case 'audit':
      return view(await auditAnswer(ctx.desk, config, ctx.user, parsed.count));
    case 'status':
      return view(await statusAnswer(ctx.desk, config, ctx.user, parsed.cluster));
    case 'cancel':
      return view(await cancelAnswer(ctx.desk, ctx.user, parsed.requestId));
    case 'values': {
      const names = findCluster(config, config.defaultCluster) ?? config.clusters[0]!;
      if (parsed.action === 'check') return view(valuesCheckAnswer(parsed, names));
      return parsed.args.length === 0 && !ctx.plainText ? { kind: 'upgrade-form' } : view(upgradeAnswer(parsed.args, names));
    }
    case 'doctor': {
      const checked = checkDoctor(config, parsed.cluster);
      return checked.ok ? { kind: 'doctor', cluster: checked.cluster } : view(checked.view);
    }
    case 'fix': {
      const ask = { entryId: parsed.entryId, ...(parsed.cluster ? { cluster: parsed.cluster } : {}), params: parsed.params };
      const checked = checkFix(config, ask);
      return checked.ok ? { kind: 'fix', ask } : view(checked.view);
    }
  }
}

/**
 * The command a short line meant when its first word is a command mistyped ("fx build-logs", "stauts"): at
 * most one edit in a word of four letters or fewer, two in a longer one, so a pasted sentence's first word
 * ("it", "test") is not taken for one. The line with the command spelt right, or undefined.
 */
function meantCommand(word: string, line: string): string | undefined {
  const words = line.trim().split(/\s+/);
  if (words.length > 4 || line.includes('\n')) return undefined;
  const near = closestWord(word, COMMAND_WORDS);
  if (!near || editDistance(word.toLowerCase(), near) > (word.length <= 4 ? 1 : 2)) return undefined;
  return [near, ...words.slice(1)].join(' ').slice(0, 120);
}

/** Parses and answers a line (the text after `/platform`, or a terminal line). */
export function answerLine(text: string, ctx: CommandContext): Promise<CommandAnswer> {
  return answerCommand(parseCommand(text), ctx, text);
}
