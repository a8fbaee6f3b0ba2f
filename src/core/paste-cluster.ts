import type { Config } from '../config.js';
import { noSuchClusterText } from '../config.js';

/**
 * Which cluster a pasted error is about, for the doctor's evidence beside the answer: the cluster the
 * message says (`cluster: prod-eu`, `cluster=prod-eu`, `--cluster prod-eu`, `on cluster prod-eu`), else
 * the one configured cluster's name it mentions, else the default cluster.
 */
export type EvidenceTarget = { readonly ok: true; readonly cluster: string; readonly named: boolean } | { readonly ok: false; readonly cluster?: string; readonly why: string };

/**
 * "cluster: NAME", "cluster=NAME", "--cluster NAME": said on purpose, so a name no cluster has is an
 * answer of its own. "on cluster NAME" only with a dash or a digit in NAME, so "in cluster mode" is no name.
 * NAME is a cluster's name as configured (lower-case letters, digits and dashes: src/config/cluster.ts),
 * and nothing may follow it that would make it part of a longer word, host, path or `arn:…`.
 * Literals, so that test/matching/redos.test.ts checks them.
 */
const said = [
  /(?:^|[^A-Za-z0-9_-])(?:--cluster[= ]|cluster ?[:=] ?)([a-z0-9](?:[a-z0-9-]{0,60}[a-z0-9])?)(?![A-Za-z0-9_-]|[.:/][A-Za-z0-9])/gim,
  /\b(?:on|in|from) (?:the )?cluster ([a-z0-9](?:[a-z0-9-]{0,60}[a-z0-9])?)(?![A-Za-z0-9_-]|[.:/][A-Za-z0-9])/gim,
];
const nameChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_-]/.test(c);

/** Whether a lower-cased text mentions a cluster's name as a word of its own (not inside a host, path or longer name). */
function mentions(lower: string, name: string): boolean {
  for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + 1)) {
    const next = lower[at + name.length];
    const inside = nameChar(lower[at - 1]) || nameChar(next) || (next !== undefined && '.:/'.includes(next) && /[a-z0-9]/.test(lower[at + name.length + 1] ?? ''));
    if (!inside) return true;
  }
  return false;
}
/** Which of the patterns above need a dash or a digit in the name. */
const loose = 1;

const quote = (s: string) => `\`${s}\``;

/** Where the cluster's evidence for a paste is read, or why it is not. */
export function evidenceTarget(text: string, config: Pick<Config, 'clusters' | 'defaultCluster'>): EvidenceTarget {
  const names = config.clusters.map((c) => c.name);
  // A paste can be long: cluster names are looked for near its start and end, where people write them.
  const head = text.length > 20_000 ? `${text.slice(0, 10_000)}\n${text.slice(-10_000)}` : text;
  const explicit = new Set<string>();
  said.forEach((re, i) => {
    for (const m of head.matchAll(re)) if (i !== loose || /[0-9-]/.test(m[1]!)) explicit.add(m[1]!.toLowerCase());
  });
  if (explicit.size > 0) {
    const known = [...explicit].filter((n) => names.includes(n));
    if (known.length === 1) return { ok: true, cluster: known[0]!, named: true };
    if (known.length > 1) return { ok: false, why: `this message names ${known.length} clusters (${known.map(quote).join(', ')}); say which one with \`cluster: NAME\`` };
    const first = [...explicit][0]!;
    return { ok: false, cluster: first.slice(0, 60), why: noSuchClusterText(first, names, quote) };
  }
  const lower = head.toLowerCase();
  const mentioned = names.filter((n) => mentions(lower, n));
  if (mentioned.length === 1) return { ok: true, cluster: mentioned[0]!, named: true };
  if (mentioned.length > 1) return { ok: false, why: `this message names ${mentioned.length} clusters (${mentioned.map(quote).join(', ')}); say which one with \`cluster: NAME\`` };
  return { ok: true, cluster: config.defaultCluster, named: false };
}
