import type { Finding } from './findings.js';
import { checkBackendConfigAnnotation, checkBodySize, checkJsonAnnotation, checkSize, checkTimeoutSec, type FormatVerdict } from './formats.js';
import { distance, keys, keyText, knownKeys, samePath, type KeyPath } from './keys.js';

/**
 * Every leaf of a values tree with its path, in document order; lists and the GCP credential count as
 * leaves. Iterative: the tree's depth is bounded by readPaste, but a walk should not rely on the stack.
 */
export function leaves(tree: unknown): { path: string[]; value: unknown }[] {
  const out: { path: string[]; value: unknown }[] = [];
  const stack: { path: string[]; value: unknown }[] = [{ path: [], value: tree }];
  while (stack.length > 0) {
    const { path, value } = stack.pop()!;
    if (typeof value !== 'object' || value === null || Array.isArray(value) || samePath(path, keys.gcpCredentials)) {
      if (path.length > 0) out.push({ path, value });
      continue;
    }
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ path: [...path, entries[i]![0]], value: entries[i]![1] });
  }
  return out;
}

/** The guide's placeholders in key names, and the real chart's names for them (a Map: a key named `constructor` is no placeholder). */
const guidePlaceholders = new Map([
  ['<database>', 'postgres'],
  ['<local_store>', 'minio'],
]);

const knownPaths: KeyPath[] = Object.values(keys);

/** The value to suggest with a corrected key: the volume size corrected too, when it was also wrong. */
function correctedValue(path: KeyPath, value: unknown): unknown {
  if (!samePath(path, keys.volumeSize)) return value;
  const verdict = checkSize(value);
  return !verdict.ok && verdict.corrected !== undefined ? verdict.corrected : value;
}

/**
 * Keys that are almost a key of 2.2: the guide's placeholder left in (`components.<database>…`), a key
 * under the wrong section (`configs.BLOB_STORAGE_S3_SECRET_KEY`: secrets go in the Secret), or a typo.
 * Other unknown keys are the chart's many other values and are left alone.
 */
export function keyFindings(values: unknown): Finding[] {
  const out: Finding[] = [];
  for (const { path, value } of leaves(values)) {
    const text = keyText(path);
    if (knownKeys.includes(text)) continue;
    const replaced = path.map((s) => guidePlaceholders.get(s) ?? s);
    if (replaced.some((s, i) => s !== path[i])) {
      out.push({ key: text, problem: `uses the guide's placeholder; the chart's key is ${keyText(replaced)}`, rule: '2.2 keys', fix: { kind: 'set', path: replaced, value: correctedValue(replaced, value) } });
      continue;
    }
    // configs become a ConfigMap and secrets a Secret: a key in the other one is not read at all.
    const sections = ['configs', 'secrets'];
    const moved = knownPaths.find((k) => path.length === 2 && sections.includes(path[0]!) && sections.includes(k[0]!) && k[1] === path[1] && k[0] !== path[0]);
    if (moved) {
      const why = moved[0] === 'secrets' ? 'secrets go in the Secret, not the ConfigMap' : 'only secrets go in the Secret';
      out.push({ key: text, problem: `belongs under ${moved[0]} (${why}); move it`, rule: '2.2 keys', fix: { kind: 'set', path: moved, value } });
      continue;
    }
    const near = knownPaths.find((k) => {
      const d = distance(text.toLowerCase(), keyText(k).toLowerCase());
      return d <= 2 && (d > 0 || text !== keyText(k));
    });
    if (near) out.push({ key: text, problem: `is not a key of the chart; did you mean ${keyText(near)}?`, rule: '2.2 keys', fix: { kind: 'set', path: near, value: correctedValue(near, value) } });
  }
  return out;
}

/** Which format of 2.3 a key's value must have, by the key's name. */
function formatOf(path: readonly string[]): ((v: unknown) => FormatVerdict) | undefined {
  const last = path[path.length - 1] ?? '';
  if (last.endsWith('/proxy-body-size')) return checkBodySize;
  if (last === 'timeoutSec') return checkTimeoutSec;
  if (last === 'cloud.google.com/backend-config') return checkBackendConfigAnnotation;
  if (last.endsWith('/last-applied-configuration')) return checkJsonAnnotation;
  if ((path.includes('persistence') && ['size', 'volumeSize'].includes(last)) || (last === 'storage' && path.includes('requests'))) return checkSize;
  return undefined;
}

/** The formats of 2.3 (body size, timeoutSec, claim sizes, JSON annotations), wherever such keys appear. */
export function formatFindings(values: unknown): Finding[] {
  const out: Finding[] = [];
  for (const { path, value } of leaves(values)) {
    if (samePath(path, keys.volumeSize)) continue;
    const check = formatOf(path);
    const verdict = check?.(value);
    if (!verdict || verdict.ok) continue;
    out.push({
      key: keyText(path),
      problem: verdict.problem,
      rule: '2.3 format',
      fix: verdict.corrected !== undefined ? { kind: 'set', path, value: verdict.corrected } : { kind: 'advice', text: 'correct the value as the message says' },
    });
  }
  return out;
}
