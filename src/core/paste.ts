import type { Config } from '../config.js';
import type { MatchResult } from '../matching/index.js';
import type { ClusterEvidenceCache } from './evidence-cache.js';
import { matchView } from './match.js';
import { evidenceTarget } from './paste-cluster.js';
import { evidenceView, pasteView } from './paste-view.js';
import { entriesToCheck, reconcile, type PasteAnswer } from './reconcile.js';
import type { View } from './view.js';

/** A paste's answer weighed against the cluster: the whole answer, and only what the cluster added. */
export interface Evidenced {
  readonly answer: PasteAnswer;
  /** The whole answer again, for a surface that replaces the one it showed (Slack's chat.update). */
  readonly view: View;
  /** Only the cluster's part, for a surface that adds below what it printed (the terminal). */
  readonly evidence?: View;
}

/**
 * A paste's reply: the text's answer at once (`first`) and, when the cluster is being read, the answer
 * with its evidence (`later`), which resolves within the evidence timeout and never rejects.
 */
export interface PasteReply {
  readonly result: MatchResult;
  readonly first: View;
  readonly later?: Promise<Evidenced>;
}

/** What reading the cluster for a paste needs: the clusters, the findings cache, who asks. */
export interface PasteEvidenceContext {
  readonly config: Pick<Config, 'clusters' | 'defaultCluster'>;
  /** Absent: the text's answer alone (no cluster to read). */
  readonly evidence?: ClusterEvidenceCache;
  readonly user: string;
}

/**
 * Answers a matched paste: the text's verdict first; then, for a match or an ask, its candidates'
 * detectors run on the cluster the message names (or the default) and the answer is weighed against
 * what they find. A cluster the message names but that is not configured is said at once.
 */
export function replyToPaste(result: MatchResult, text: string, ctx: PasteEvidenceContext): PasteReply {
  const entries = entriesToCheck(result);
  if (!ctx.evidence || entries.length === 0) return { result, first: matchView(result) };
  const target = evidenceTarget(text, ctx.config);
  if (!target.ok) return { result, first: pasteView(reconcile(result, { ok: false, ...(target.cluster ? { cluster: target.cluster } : {}), why: target.why })) };
  const first = pasteView({ kind: 'pending', result, cluster: target.cluster, named: target.named });
  const later = ctx.evidence.check(target.cluster, entries, ctx.user).then((found): Evidenced => {
    const answer = reconcile(result, found, target.named);
    const evidence = evidenceView(answer);
    return { answer, view: pasteView(answer), ...(evidence ? { evidence } : {}) };
  });
  return { result, first, later };
}

/**
 * The evidence if it is there already (a finding reused from another paste), else undefined, without
 * waiting: a surface then shows the evidenced answer at once instead of the text's and an update.
 */
export function ifReady<T>(later: Promise<T> | undefined): Promise<T | undefined> {
  if (!later) return Promise.resolve(undefined);
  // A reused finding settles within a few microtasks; anything read from the cluster takes a turn of the event loop at least.
  return Promise.race([later, new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)))]);
}
