import type { Config } from '../config.js';
import { noSuchClusterText } from '../config.js';

/**
 * Which cluster a pasted error is about, for the doctor's evidence beside the answer: the cluster the
 * message says (`cluster: prod-eu`, `cluster=prod-eu`, `--cluster prod-eu`, `on cluster prod-eu`), else
 * the one configured cluster's name it mentions, else the default cluster.
 */
export type EvidenceTarget = { readonly ok: true; readonly cluster: string; readonly named: boolean } | { readonly ok: false; readonly cluster?: string; readonly why: string };

/** A cluster's name as configured: lower-case letters, digits and dashes (src/config/cluster.ts). */
const name = '([a-z0-9](?:[a-z0-9-]{0,60}[a-z0-9])?)';
/** After a name: nothing that would make it part of a longer word, host, path or `arn:…`. */
const after = '(?![A-Za-z0-9_-]|[.:/][A-Za-z0-9])';
/**
 * "cluster: NAME", "cluster=NAME", "--cluster NAME": said on purpose, so a name no cluster has is an
 * answer of its own. "on cluster NAME" only with a dash or a digit in NAME, so "in cluster mode" is no name.
 */
const said = [
  new RegExp(`(?:^|[^A-Za-z0-9_-])(?:--cluster[= ]|cluster ?[:=] ?)${name}${after}`, 'gim'),
  new RegExp(`\\b(?:on|in|from) (?:the )?cluster ${name}${after}`, 'gim'),
];
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
  const mentioned = names.filter((n) => new RegExp(`(?:^|[^a-z0-9_-])${n}${after}`).test(lower));
  if (mentioned.length === 1) return { ok: true, cluster: mentioned[0]!, named: true };
  if (mentioned.length > 1) return { ok: false, why: `this message names ${mentioned.length} clusters (${mentioned.map(quote).join(', ')}); say which one with \`cluster: NAME\`` };
  return { ok: true, cluster: config.defaultCluster, named: false };
}
