import type { CatalogueEntry } from '../catalogue/model.js';
import type { Hits } from './hits.js';
import type { TableFact } from './kubectl.js';
import { lineAt, lineStart } from './lines.js';
import { Kind, normaliseLiteral, type CompiledCatalogue } from './literals.js';
import { patterns } from './patterns.js';
import { bagMatches, isProse, words, type BagMatch } from './prose.js';
import { fixWorked, workedAccount } from './applied.js';
import { readSubject } from './subject.js';
import { rulesFor } from './table-rules.js';
import { ruledOutByVersion, statedVersions } from './versions.js';

/** Kind's values as this module's own constants: read per hit, an import binding is a getter under tsx (see scan.ts). */
const KIND_CONTEXT = Kind.Context;
const KIND_DOWNSTREAM = Kind.Downstream;
const KIND_ERROR = Kind.Error;
const KIND_EXCLUDE = Kind.Exclude;

/**
 * Scoring: every entry is scored on all its evidence and the entries are ranked; none wins by being
 * tried first. Evidence comes in tiers, from what a line proves on its own to what needs support:
 *   error   an `errors` text, a `phrases` text of several words in a person's sentence, or a strong
 *           table row: 0.70
 *           (0.78, 0.86 for two or three different ones)
 *   bag     a sentence whose words cover most of one of the entry's phrases or its title: 0.30 + 0.30 ×
 *           coverage, plus 0.04 per shared word beyond two, up to two (a longer phrase covered is more
 *           telling); it stays below an exact text, which says more than a paraphrase
 *   weak    a `phrases` text inside machine output (or of one word), a `downstream` text (what the cause
 *           broke further down, wherever it stands), or a weak table row: 0.40 (0.46 for two)
 * The best tier sets the base; other tiers at or above the threshold agreeing add 0.05 each; each different `context` text near
 * the evidence adds 0.12 (at most two count); for an entry whose remedy acts on the platform, a paste
 * that names the platform counts as one such text for its downstream evidence (a missing table is the
 * failed migrations' when the paste is the platform's, anyone's otherwise). An `excludes` text near the
 * evidence removes it. An entry is proposed at THRESHOLD or above, so weak evidence alone never is: it
 * needs context.
 */
export const THRESHOLD = 0.5;

/** Lines around a piece of evidence in which context and excludes count (everywhere in a short paste). */
const CONTEXT_WINDOW = 25;
const EXCLUDE_WINDOW = 8;
/** A paste of at most this many lines is read as one piece: context and excludes count anywhere in it. */
const SHORT_PASTE_LINES = 40;
/** Sentences are compared as bags of words only in pastes this short: long pastes are logs. */
const PROSE_CHARS = 8000;
const PROSE_WORDS = 80;
/** A sentence must cover this share of a longer phrase's weight (and all of a short one's) to count. */
const BAG_COVERAGE = 0.7;

/** Different context texts of one entry that, together, make it worth offering when nothing matched. */
const TELLING_CONTEXT = 3;

type Tier = 'error' | 'bag' | 'weak';

/** One piece of evidence for an entry, before it is rendered. */
export interface Found {
  readonly line: number;
  readonly start: number;
  readonly signature: string;
  /** The signature normalised (lower case, single spaces). */
  readonly literal: string;
  readonly tier: Tier;
  /** A `downstream` text: weak wherever it stands, supported by the platform's name (see above). */
  readonly downstream?: boolean;
  /** One of the entry's exact machine errors (an `errors` text or a strong table row), not a description. */
  readonly exact?: boolean;
  /** For a sentence compared as a bag of words: how many of the entry's text's words it has. */
  readonly shared?: number;
}

/** An entry's score: its confidence, its evidence, and how close it came if it has none. */
export interface Scored {
  readonly entry: number;
  readonly confidence: number;
  readonly evidence: readonly Found[];
  /** For abstentions: how much the paste has to do with the entry (shared words, context, vetoed evidence). */
  readonly nearness: number;
}

interface ProseLine {
  readonly line: number;
  readonly start: number;
  readonly stems: readonly string[];
}

/** The sentences of a short paste, with their word stems. */
function proseLines(text: string): ProseLine[] {
  if (text.length > PROSE_CHARS) return [];
  const out: ProseLine[] = [];
  let start = 0;
  let line = 1;
  while (start <= text.length) {
    const l = lineAt(text, start);
    // Each sentence of a line on its own: a chat message is often one line of several sentences.
    if (isProse(l)) for (const sentence of l.split(patterns.sentenceEnd)) out.push({ line, start, stems: words(sentence) });
    const next = text.indexOf('\n', start);
    if (next < 0) break;
    start = next + 1;
    line++;
  }
  return out;
}

function tierScore(tier: Tier, distinct: number, bag: number): number {
  if (distinct === 0) return 0;
  if (tier === 'error') return 0.62 + 0.08 * Math.min(distinct, 3);
  if (tier === 'weak') return 0.34 + 0.06 * Math.min(distinct, 2);
  return 0.3 + 0.3 * bag;
}

/** Scores every entry of the compiled catalogue against what the scan and the table reader found. */
export function score(text: string, lines: number, compiled: CompiledCatalogue, hits: Hits, facts: readonly TableFact[]): Scored[] {
  const { entries, refs, refKind } = compiled;
  const short = lines <= SHORT_PASTE_LINES;
  const prose = proseLines(text);
  const bags = bestBags(compiled, prose);
  const proseAt = new Map<number, boolean>();
  const lineIsProse = (line: number, start: number): boolean => {
    let p = proseAt.get(line);
    if (p === undefined) proseAt.set(line, (p = isProse(lineAt(text, start))));
    return p;
  };
  const tableFound = tableEvidence(entries, facts);
  // A fix said to have worked is read in a person's account, as sentences are: a short paste that says something worked.
  const account = workedAccount(text, PROSE_CHARS);

  const raw = entries.map((_, entry): Found[] => {
    const found: Found[] = tableFound ? [...tableFound[entry]!] : [];
    for (const h of hits.evidence[entry]!) {
      const ref = refs[h.ref]!;
      if (ref.kind === KIND_DOWNSTREAM) {
        found.push({ line: h.line, start: h.start, signature: ref.signature, literal: ref.literal, tier: 'weak', downstream: true });
        continue;
      }
      // A phrase is a person's description in a sentence; one machine word (a status, a cookie name) is not.
      const strong = ref.kind === KIND_ERROR || (ref.signature.trim().includes(' ') && lineIsProse(h.line, h.start));
      found.push({ line: h.line, start: h.start, signature: ref.signature, literal: ref.literal, tier: strong ? 'error' : 'weak', exact: ref.kind === KIND_ERROR });
    }
    const bag = bags[entry];
    if (bag) found.push({ line: bag.line, start: bag.start, signature: bag.text, literal: normaliseLiteral(bag.text), tier: 'bag', shared: bag.shared });
    // The person says the entry's fix worked: as telling as its error (applied.ts).
    const worked = account !== undefined ? fixWorked(account, entries[entry]!) : undefined;
    if (worked) found.push({ line: worked.line, start: lineStart(text, worked.line), signature: worked.literal, literal: normaliseLiteral(worked.literal), tier: 'error' });
    return found;
  });
  const specific = keepMostSpecific(raw);
  const versions = statedVersions(text);
  // Whether the paste names the platform, read (once, and only when needed) around the downstream evidence.
  let platformNamed: boolean | undefined;
  const namesPlatform = (): boolean =>
    (platformNamed ??= readSubject(text, specific.flatMap((found) => found.filter((f) => f.downstream).map((f) => f.start))).platform);

  return entries.map((e, entry): Scored => {
    const bag = bags[entry];
    let found: readonly Found[] = specific[entry]!;
    const beforeVeto = raw[entry]!.length;
    if (ruledOutByVersion(e.versions, versions)) found = [];
    // Excludes remove evidence; with none, there is nothing to remove.
    if (found.length > 0) {
      const excludes = nearbyLines(hits, refKind, entry, KIND_EXCLUDE);
      if (excludes.length > 0) found = short ? [] : found.filter((f) => !excludes.some((line) => Math.abs(line - f.line) <= EXCLUDE_WINDOW));
    }
    // Context supports evidence near it, or anything in a short paste; in a long one, an entry without evidence has none.
    const contextRefs = found.length > 0 || short ? supportingContext(hits, compiled, entry, found, short) : NO_CONTEXT;
    const platformSupport = (e.appliesTo ?? 'platform') === 'platform' && found.some((f) => f.downstream) && namesPlatform() ? 1 : 0;
    const context = Math.min(contextRefs.size + platformSupport, 2);
    if (found.length === 0) {
      const vetoed = beforeVeto > 0 ? 0.4 : 0;
      const telling = [...contextRefs].some((r) => namesAThing(refs[r]!.literal)) || contextRefs.size >= TELLING_CONTEXT ? contextRefs.size : 0;
      return { entry, confidence: 0, evidence: [], nearness: Math.max(vetoed, (bag?.coverage ?? 0) * 0.5, 0.1 * Math.min(telling, TELLING_CONTEXT)) };
    }
    const distinct = (tier: Tier): number => new Set(found.filter((f) => f.tier === tier).map((f) => f.signature)).size;
    const tiers = [tierScore('error', distinct('error'), 0), tierScore('weak', distinct('weak'), 0), bag && found.some((f) => f.tier === 'bag') ? tierScore('bag', 1, bag.coverage) + 0.04 * Math.min(bag.shared - 2, 2) : 0];
    const base = Math.max(...tiers);
    // Weak evidence agreeing with something stronger adds nothing: it is what needed the support.
    const agreeing = Math.max(0, tiers.filter((t) => t >= THRESHOLD).length - 1);
    const confidence = Math.min(0.99, base + 0.05 * agreeing + 0.12 * context);
    return { entry, confidence: Math.round(confidence * 100) / 100, evidence: found, nearness: confidence };
  });
}

/**
 * Whether a context text names a thing of the platform (a component, a key, a file: argocd-dex-server,
 * proxy-body-size, tls.crt) rather than being a word any paste may contain (memory, kubelet, cluster,
 * registry). When the matcher abstains, an entry is offered on context alone only for such a name,
 * or for TELLING_CONTEXT of its words together: one word is chance, and two are often neighbours in
 * any output (an OOMKilled pod's description says "cpu" and "memory" without being about graphs).
 */
function namesAThing(literal: string): boolean {
  return patterns.namedThing.test(literal);
}

/**
 * Where two entries matched the same line and one's text contains the other's ("reset admin password"
 * and "admin password"), only the longer, more specific one is evidence.
 */
function keepMostSpecific(raw: readonly (readonly Found[])[]): readonly (readonly Found[])[] {
  // Only on a line with evidence of two entries can one's text contain the other's: most pastes have none.
  const owner = new Map<number, number>();
  let shared = false;
  raw.forEach((found, entry) => {
    for (const f of found) {
      const o = owner.get(f.line);
      if (o === undefined) owner.set(f.line, entry);
      else if (o !== entry) shared = true;
    }
  });
  if (!shared) return raw;
  const byLine = new Map<number, { entry: number; literal: string }[]>();
  raw.forEach((found, entry) => {
    for (const f of found) {
      const list = byLine.get(f.line) ?? [];
      list.push({ entry, literal: f.literal });
      byLine.set(f.line, list);
    }
  });
  return raw.map((found, entry) =>
    found.filter((f) => !byLine.get(f.line)!.some((o) => o.entry !== entry && o.literal.length > f.literal.length && o.literal.includes(f.literal))),
  );
}

/**
 * Whether a context hit supports the evidence: near it (anywhere in a short paste), and not merely a
 * word of a text that matched ("discover" beside "no charts in discover" adds nothing the phrase did
 * not say).
 */
function supports(line: number, literal: string, found: readonly Found[], short: boolean): boolean {
  if (found.some((f) => f.literal.includes(literal))) return false;
  return short || found.some((f) => Math.abs(line - f.line) <= CONTEXT_WINDOW);
}

const NO_CONTEXT: ReadonlySet<number> = new Set();

/** The refs of an entry's different context texts that support its evidence. */
function supportingContext(hits: Hits, compiled: CompiledCatalogue, entry: number, found: readonly Found[], short: boolean): ReadonlySet<number> {
  const { refs, refKind } = compiled;
  let context: Set<number> | undefined;
  for (let i = hits.firstNearby(entry); i >= 0; i = hits.nextNearby(i)) {
    const r = hits.nearbyRef(i);
    if (refKind[r] === KIND_CONTEXT && !context?.has(r) && supports(hits.nearbyLine(i), refs[r]!.literal, found, short)) (context ??= new Set()).add(r);
  }
  return context ?? NO_CONTEXT;
}

/** Per entry, the evidence the kubectl tables give it; undefined when the paste has no table facts. */
function tableEvidence(entries: readonly CatalogueEntry[], facts: readonly TableFact[]): Found[][] | undefined {
  if (facts.length === 0) return undefined;
  const indexOfId = new Map(entries.map((e, i) => [e.id, i]));
  const tableFound: Found[][] = entries.map(() => []);
  for (const fact of facts) {
    for (const rule of rulesFor(fact)) {
      const i = indexOfId.get(rule.entry);
      if (i !== undefined) {
        tableFound[i]!.push({ line: fact.line, start: fact.start, signature: rule.signature, literal: normaliseLiteral(rule.signature), tier: rule.strength === 'strong' ? 'error' : 'weak', exact: rule.strength === 'strong' });
      }
    }
  }
  return tableFound;
}

/** The lines of an entry's context or exclude hits of one kind. */
function nearbyLines(hits: Hits, refKind: Uint8Array, entry: number, kind: Kind): number[] {
  const lines: number[] = [];
  for (let i = hits.firstNearby(entry); i >= 0; i = hits.nextNearby(i)) if (refKind[hits.nearbyRef(i)] === kind) lines.push(hits.nearbyLine(i));
  return lines;
}

/**
 * Per entry, the sentence that best covers one of its phrases (or its title or symptom). Each
 * sentence is compared on its own, so that words scattered over a paragraph do not add up to a
 * phrase; a short phrase must be covered whole, a longer one mostly.
 */
function bestBags(compiled: CompiledCatalogue, prose: readonly ProseLine[]): ((BagMatch & { line: number; start: number }) | undefined)[] {
  const best: ((BagMatch & { line: number; start: number }) | undefined)[] = [];
  if (prose.reduce((n, p) => n + p.stems.length, 0) > PROSE_WORDS) return best;
  for (const p of prose) {
    bagMatches(compiled.bag, p.stems, compiled.entries.length).forEach((m, entry) => {
      if (!m || m.shared < 2 || m.coverage < (m.stems.length <= 3 ? 0.99 : BAG_COVERAGE)) return;
      const prev = best[entry];
      if (!prev || m.coverage > prev.coverage) best[entry] = { ...m, line: p.line, start: p.start };
    });
  }
  return best;
}
