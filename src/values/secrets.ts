import { decodeBase64Json } from './gcp.js';
import { isPlaceholder, isSecretName, keys, samePath } from './keys.js';
import { valuesLimits } from './limits.js';

/** A JSON document, or undefined when the text is not one. */
export function tryJson(text: string): unknown {
  if (!text.trim().startsWith('{')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Every secret value in the values (and in files the paste wrote): values under secret keys, the
 * fields of a GCP credential and its encoded form. Collected only to scrub them from answers.
 * Iterative, and no deeper than the values may nest: a decoded credential or a written file may nest
 * as deep as its author liked, and nothing below that depth is ever shown in an answer.
 */
export function secretsOf(values: unknown, files: ReadonlyMap<string, string>): Set<string> {
  const out = new Set<string>();
  const stack: { node: unknown; path: readonly string[]; secret: boolean }[] = [{ node: values, path: [], secret: false }];
  for (const body of files.values()) {
    const json = tryJson(body);
    if (json !== undefined) stack.push({ node: json, path: [], secret: false });
  }
  while (stack.length > 0) {
    const { node, path, secret } = stack.pop()!;
    // Inside a service-account credential only the key fields are secret, not its type or Google's URLs.
    if (samePath(path, keys.gcpCredentials) && typeof node === 'object' && node !== null) {
      stack.push({ node, path: [], secret: false });
      continue;
    }
    if (typeof node === 'object' && node !== null) {
      if (path.length >= valuesLimits.depth) continue;
      // The secret flag is carried down, so each key is tested once rather than its whole path at each level.
      const named = (k: string) => !Array.isArray(node) && ((path.length === 0 && k === 'secrets') || isSecretName(k));
      for (const [k, v] of Object.entries(node)) stack.push({ node: v, path: [...path, k], secret: secret || named(k) });
      continue;
    }
    if (!secret) continue;
    if (typeof node === 'string' && node.length >= 4 && !isPlaceholder(node)) out.add(node);
    if (typeof node === 'string') {
      const decoded = decodeBase64Json(node) ?? tryJson(node);
      if (decoded !== undefined) stack.push({ node: decoded, path: [], secret: false });
    }
  }
  return out;
}
