import type { CatalogueEntry } from '../catalogue/model.js';
import { patterns } from './patterns.js';

/**
 * Sentences in users' words. A line is prose unless it carries the marks of machine output; the
 * words of prose lines are compared, as bags of word stems, with the entries' phrases and titles, so
 * that "logs aren't streaming for my build" finds "build logs are not streaming".
 */

const LOG_MARKS = [
  patterns.clockTime,
  patterns.isoDate,
  patterns.klogPrefix,
  patterns.keyValue,
  patterns.structuredStart,
  patterns.errorChainPrefix,
  patterns.errorChain,
  patterns.tableGap,
  patterns.sourceLocation,
  patterns.stackFrame,
];

/** True when a (trimmed) line reads like a person's sentence rather than a log, table or trace. */
export function isProse(line: string): boolean {
  const t = line.trim();
  if (t.length === 0) return false;
  // A long line is prose when each of its sentences is: a chat message is often one line of many sentences.
  if (t.length > 400) return t.split(patterns.sentenceEnd).every((sentence) => sentence.length <= 400 && isSentence(sentence.trim()));
  return isSentence(t);
}

/**
 * Words that tools, not people, put before a colon or in brackets at the start of a line: levels and
 * fields, and the programs that name themselves before their messages (`curl: (22) …`, `kubelet: Failed to
 * pull image …`, `docker: Error response from daemon: …`).
 */
const TOOL_PREFIXES = new Set(
  `error err fatal warning warn info information debug trace panic exception failed failure reason message msg status
  details detail hint note remote stderr stdout level critical severe notice alert emerg caused output result response
  request events event type kind name code e w i f
  kubelet kubectl helm docker dockerd containerd crictl podman curl wget git ssh scp sudo bash sh zsh make npm yarn pip
  go java python node kernel systemd journalctl`.split(patterns.whitespace),
);

function isSentence(t: string): boolean {
  // A chat line's speaker or channel ("alice: …", "[devtron] …") is not a tool's prefix: the rest is read.
  const speaker = patterns.speaker.exec(t);
  if (speaker !== null && !TOOL_PREFIXES.has((speaker[1] ?? speaker[2] ?? speaker[3] ?? '').toLowerCase())) {
    const rest = t.slice(speaker[0].length);
    if (patterns.levelFirst.test(rest)) return false;
    t = rest;
  }
  return t.length > 0 && !LOG_MARKS.some((re) => re.test(t));
}

const STOP = new Set(
  `a an the is are was were be been being am i im my me we our us you your it its this that these those to of in into on onto
  for with at by from and or but so as if when then than after before again any some all do does did done have has had
  get gets got getting can could would should will just still also there here what why how which who whom please help hi
  hello team anyone someone know idea thanks thank since now today yesterday even though very really seem seems seemed
  keep keeps kept anymore any one same guys folks while about up out over only ever every each either`.split(patterns.whitespace),
);

/** Contractions written without an apostrophe, as people type them in chat. */
const BARE_NEGATIONS = new Set(['isnt', 'arent', 'doesnt', 'dont', 'cant', 'wont', 'didnt', 'wasnt', 'werent', 'couldnt', 'hasnt', 'havent', 'cannot', 'shouldnt']);

/** A handful of spellings of the same thing. */
const SYNONYMS = new Map([
  ['login', 'login'],
  ['logon', 'login'],
  ['signin', 'login'],
  ['passwd', 'password'],
  ['pwd', 'password'],
  ['creds', 'credential'],
  ['k8s', 'kubernetes'],
  ['argo', 'argocd'],
  ['never', 'not'],
  ['no', 'not'],
  ['unable', 'not'],
  ['fails', 'fail'],
  ['failing', 'fail'],
  ['failure', 'fail'],
  ['broken', 'fail'],
  // "Bounce the pod" is operators' slang for restarting it.
  ['bounc', 'restart'],
]);

/** A light suffix stripper: enough to make logs/log, streaming/stream, fetched/fetch, expires/expired meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  // A doubled final consonant left by -ing/-ed (logging → logg → log).
  const n = w.length;
  if (n > 3 && w[n - 1] === w[n - 2] && !'aeiouls'.includes(w[n - 1]!)) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** The content words of a text, as stems; negations become `not`, "log in" becomes `login`. */
export function words(text: string): string[] {
  const raw = text.toLowerCase().split(patterns.nonWord);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    let w = raw[i]!.replace('\u2019', "'");
    if (w.length === 0) continue;
    if (w.endsWith("n't") || BARE_NEGATIONS.has(w)) {
      out.push('not');
      continue;
    }
    const apostrophe = w.indexOf("'");
    if (apostrophe >= 0) w = w.slice(0, apostrophe);
    const next = raw[i + 1];
    if ((w === 'log' || w === 'logging' || w === 'logged' || w === 'sign' || w === 'signing') && (next === 'in' || next === 'into' || next === 'on')) {
      out.push('login');
      i++;
      continue;
    }
    w = SYNONYMS.get(w) ?? w;
    if (STOP.has(w) || w.length < 2) continue;
    out.push(SYNONYMS.get(stem(w)) ?? stem(w));
  }
  return out;
}

/** One text an entry is known by (a phrase, the title, the symptom), as weighted stems. */
interface Doc {
  readonly entry: number;
  readonly text: string;
  readonly stems: readonly string[];
  readonly weight: number;
  /** Its most telling stem (the one fewest entries share): a sentence without it is about something else. */
  readonly rarest: string;
  /** It says that something does not happen ("servicemonitor not discovered"): a sentence saying nothing of the kind is not it. */
  readonly negated: boolean;
}

/**
 * Stems with which a sentence says that something does not happen or went wrong. "Services have labels so we
 * can target them with ServiceMonitors" shares the words of "servicemonitor not showing up in targets" and
 * says the opposite: a feature request, an expectation, a how-to.
 */
const WRONG_WORDS = ['not', 'no', 'never', 'nothing', 'none', 'zero', 'without', 'unable', 'fail', 'error', 'err', 'missing', 'empty', 'blank', 'stuck', 'lost', 'gone', 'stopped', 'incomplete', 'disappeared'];

/** The entries' phrases, titles and symptoms, indexed by stem; built once per entry set. */
export interface BagIndex {
  readonly docs: readonly Doc[];
  readonly byStem: ReadonlyMap<string, readonly number[]>;
  readonly idf: ReadonlyMap<string, number>;
}

/** WRONG_WORDS as words() gives them. */
const wrongStems = new Set(WRONG_WORDS.flatMap((w) => words(w)));

export function buildBagIndex(entries: readonly CatalogueEntry[]): BagIndex {
  const texts: { entry: number; text: string; stems: string[] }[] = [];
  entries.forEach((e, entry) => {
    for (const t of [...e.signatures.phrases, e.title, e.symptom]) {
      const stems = [...new Set(words(t))];
      if (stems.length >= 2) texts.push({ entry, text: t, stems });
    }
  });
  // Inverse document frequency over entries: a stem many entries share ("pod", "fail") weighs little.
  const entriesWith = new Map<string, Set<number>>();
  for (const t of texts) for (const s of t.stems) entriesWith.set(s, (entriesWith.get(s) ?? new Set()).add(t.entry));
  const idf = new Map<string, number>();
  for (const [s, set] of entriesWith) idf.set(s, Math.log(1 + entries.length / set.size));
  const docs = texts.map((t) => ({
    ...t,
    weight: t.stems.reduce((sum, s) => sum + idf.get(s)!, 0),
    rarest: t.stems.reduce((a, b) => (idf.get(b)! > idf.get(a)! ? b : a)),
    negated: t.stems.includes('not'),
  }));
  const byStem = new Map<string, number[]>();
  docs.forEach((d, i) => {
    for (const s of d.stems) byStem.set(s, [...(byStem.get(s) ?? []), i]);
  });
  return { docs, byStem, idf };
}

/** How well a sentence covers one entry's best-matching text. */
export interface BagMatch {
  /** Share of that text's weight the sentence covers, 0..1. */
  readonly coverage: number;
  /** How many of its stems the sentence has. */
  readonly shared: number;
  /** The phrase, title or symptom it matched, as the catalogue writes it. */
  readonly text: string;
  readonly stems: readonly string[];
}

/** How many words apart a negation and what it negates may stand: "charts are not showing", "no charts in Discover". */
const NEGATION_REACH = 4;

/**
 * Whether a word of the sentence that says something went wrong stands near one of the text's own words: in
 * "we deploy a chart through the chart store … and it is unable to fetch the deployment status" the failure is the
 * status's, not the chart store's, and "chart store shows no charts" is not what it says.
 */
function negationReaches(sentence: readonly string[], text: readonly string[]): boolean {
  const own = new Set(text.filter((s) => s !== 'not'));
  for (let i = 0; i < sentence.length; i++) {
    if (!wrongStems.has(sentence[i]!)) continue;
    for (let j = Math.max(0, i - NEGATION_REACH); j <= Math.min(sentence.length - 1, i + NEGATION_REACH); j++) if (own.has(sentence[j]!)) return true;
  }
  return false;
}

/** Per entry (by index), the best coverage of any of its texts by the given stems (a sentence's, in order). */
export function bagMatches(index: BagIndex, stems: readonly string[], entryCount: number): (BagMatch | undefined)[] {
  const covered = new Map<number, { weight: number; shared: number }>();
  const present = new Set(stems);
  for (const s of present) {
    for (const d of index.byStem.get(s) ?? []) {
      const c = covered.get(d) ?? { weight: 0, shared: 0 };
      c.weight += index.idf.get(s)!;
      c.shared++;
      covered.set(d, c);
    }
  }
  const best: (BagMatch | undefined)[] = new Array(entryCount).fill(undefined);
  const saysWrong = [...present].some((s) => wrongStems.has(s));
  for (const [d, c] of covered) {
    const doc = index.docs[d]!;
    if (!present.has(doc.rarest) || (doc.negated && !(saysWrong && negationReaches(stems, doc.stems)))) continue;
    const coverage = c.weight / doc.weight;
    const prev = best[doc.entry];
    if (!prev || coverage > prev.coverage || (coverage === prev.coverage && c.shared > prev.shared)) {
      best[doc.entry] = { coverage, shared: c.shared, text: doc.text, stems: doc.stems };
    }
  }
  return best;
}
