import type { Evidence } from '../doctor/index.js';
import type { Candidate } from '../matching/index.js';
import { redact } from '../redact.js';
import { unknownWhy } from './doctor.js';
import { fixCommand, needsLine } from './fix-hint.js';
import { askView, likely, matchView, pct, topView, triedSentence, type Shown } from './match.js';
import type { PasteAnswer, Seen, Weighed } from './reconcile.js';
import { code, joined, para, strong, t, ticked, type Inline, type View } from './view.js';

/** Pieces of a symptom's evidence shown on one line; the rest are counted. */
const shownEvidence = 2;

/** The evidence of a symptom seen, on one line: its first objects and what they show, and how many more. */
function seenEvidence(evidence: readonly Evidence[]): Inline {
  const items = evidence.filter((e) => e.object !== '…');
  const counted = Number(/^(\d+) more$/.exec(evidence.find((e) => e.object === '…')?.detail ?? '')?.[1] ?? 0);
  const more = Math.max(0, items.length - shownEvidence) + counted;
  const first = items.slice(0, shownEvidence).map((e) => t`${code(e.object)} ${e.detail}`);
  return t`${joined(first, '; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

/** What the cluster shows of one candidate, as the line under its text evidence. */
export function seenLine(seen: Seen, cluster: string, mark = '🩺 '): Inline {
  switch (seen.state) {
    case 'present':
      return t`${mark}seen in ${code(cluster)}: ${seenEvidence(seen.evidence)}`;
    case 'absent':
      return t`${mark}not seen in ${code(cluster)} right now`;
    case 'unknown':
      return t`${mark}could not check in ${code(cluster)}: ${unknownWhy[seen.reason] ?? 'could not be read'}${seen.message ? `: ${seen.message}` : ''}`;
    case 'not-observable':
      return t`${mark}not observable from the cluster${seen.check ? `: ${seen.check}` : ''}`;
  }
}

/** Why the cluster's evidence is missing, as shown: ticked names as code, secrets redacted. */
const unavailableLine = (why: string): Inline => t`🩺 Cluster evidence unavailable: ${ticked(redact(why).replace(/\.$/, ''))}. This answer is from the text alone.`;

const seenBy = (order: readonly Weighed[], cluster: string, notPushed: string | undefined) => (c: Candidate) => {
  const w = order.find((x) => x.candidate.id === c.id);
  if (!w) return undefined;
  if (c.id === notPushed) return t`🩺 not seen in ${code(cluster)} right now, so I am not proposing this fix; plan it anyway if you know better`;
  return seenLine(w.seen, cluster);
};

/**
 * A paste's answer with what the cluster shows (see reconcile.ts): the text's answer while the
 * cluster is read or when it cannot be, else the answer the cluster's findings make of it.
 */
export function pasteView(answer: PasteAnswer): View {
  const { result } = answer;
  if (answer.kind === 'text' || (result.verdict === 'no-match' && !('tried' in result))) return matchView(result);
  const planOn = answer.named && answer.cluster ? { planOn: answer.cluster } : {};
  if (answer.kind === 'pending') {
    // A remedy tried already is the one symptom checked (a no-match has no matches of its own).
    const n = result.verdict === 'no-match' ? 1 : result.matches.length;
    return matchView(result, { proposed: true, ...planOn, after: [t`🩺 Checking ${code(answer.cluster)} for ${n === 1 ? 'this symptom' : 'these symptoms'} (read-only)…`] });
  }
  if (answer.kind === 'unavailable') return matchView(result, { proposed: true, ...planOn, after: [unavailableLine(answer.why)] });
  const { cluster, order, outcome } = answer;
  const candidates = order.map((w) => w.candidate);
  const top = candidates[0]!;
  const shown = (extra: Partial<Shown>): Shown => ({ proposed: false, ...planOn, seen: seenBy(order, cluster, outcome === 'not-seen' ? top.id : undefined), ...extra });
  switch (outcome) {
    case 'confirmed':
      return withSummary(topView(candidates, shown({ proposed: true })), t`Likely ${top.id} (guide ${top.ref}), confidence ${pct(top.confidence)}; seen in ${cluster}`);
    case 'unchanged':
      return topView(candidates, shown({ proposed: true }));
    case 'not-seen':
      return withSummary(topView(candidates, shown({})), t`${likely(top)} ${top.id} (guide ${top.ref}) by the text, confidence ${pct(top.confidence)}; not seen in ${cluster} right now`);
    case 'decided': {
      const others = candidates.length - 1;
      const before = para(t`🩺 The cluster decides: of the ${others + 1} entries this could be, ${strong(top.title)} is the one seen in ${code(cluster)}.`);
      return withSummary(topView(candidates, shown({ proposed: true, before: [before], plannableAlternatives: result.verdict === 'ask' })), t`Seen in ${cluster}: ${top.id} (guide ${top.ref}), proposed`);
    }
    case 'tried':
      return matchView(result, shown({}));
    case 'still-ask': {
      const seen = order.filter((w) => w.seen.state === 'present').length;
      const after = seen > 1 ? [t`🩺 ${seen} of these are seen in ${code(cluster)}: pick the one that fits.`] : [];
      return askView(candidates, result.verdict === 'ask' ? result.why : 'close', shown({ after }));
    }
  }
}

/**
 * Only what the cluster added to an answer, for a surface that printed the text's answer already and
 * cannot change it (the terminal): each candidate's line, and what is proposed now.
 */
export function evidenceView(answer: PasteAnswer): View | undefined {
  if (answer.kind === 'text' || answer.kind === 'pending') return undefined;
  if (answer.kind === 'unavailable') return { summary: unavailableLine(answer.why), parts: [para(unavailableLine(answer.why))] };
  const { cluster, order, proposed, outcome } = answer;
  const lines = order.map((w) => t`${code(w.candidate.id)}: ${seenLine(w.seen, cluster, '')}`);
  const top = order[0]!.candidate;
  const plan = fixCommand(top.id, answer.named ? cluster : undefined);
  const needs = ['decided', 'not-seen', 'confirmed'].includes(outcome) ? needsLine(top.id) : undefined;
  const verdict: Inline =
    outcome === 'decided'
      ? t`The cluster decides: ${strong(top.id)} is the one seen. Type ${code(plan)} to plan it.`
      : outcome === 'not-seen'
        ? t`${code(top.id)} is not seen in ${code(cluster)} right now, so I am not proposing its fix; type ${code(plan)} to plan it anyway if you know better.`
        : outcome === 'confirmed'
          ? t`The cluster confirms ${code(top.id)}: type ${code(plan)} to plan it.`
          : outcome === 'unchanged'
            ? t`The cluster could not tell; the answer from the text stands.`
            : outcome === 'tried'
              ? t`${triedSentence(answer.result.verdict === 'no-match' && 'tried' in answer.result ? answer.result.note : 'applied', top.id)} No fix is proposed.`
              : t`The cluster does not settle it: pick the one that fits.`;
  const summary = t`Evidence from ${cluster}: ${proposed ?? 'no fix proposed'}`;
  return { summary, parts: [{ kind: 'lines', lines: [t`🩺 ${strong('In')} ${code(cluster)}:`, ...lines] }, para(verdict), ...(needs ? [para(needs)] : [])] };
}

const withSummary = (view: View, summary: Inline): View => ({ ...view, summary });
