/**
 * The value formats of the guide (sections 2.2 and 2.3), one checker each. A checker answers with the
 * problem in words and, when the intent is clear, the corrected value; it never throws. Every pattern
 * here is anchored and free of nested or overlapping repetition, so each runs in linear time.
 */

import { isBinarySuffix, parseQuantity } from '../quantity.js';

/** What a format checker concludes: fine, or what is wrong and (when clear) the value to use instead. */
export type FormatVerdict = { ok: true } | { ok: false; problem: string; corrected?: unknown };

/** `20GB`, `20gb`, `20 Gi`, `20G`: the number and a unit someone meant as binary. */
const sizeLike = /^([0-9]{1,12})[ \t]{0,3}([KkMmGgTtPpEe])(?:[Ii]?[Bb]?)$/;

/**
 * A size string such as `20Gi` (2.2: the database volume; 2.3: claim sizes such as `10Gi`). Kubernetes
 * also takes decimal quantities (`20G`), which are accepted; a unit it does not know (`20GB`) and a bare
 * number (bytes, never what anyone means for a volume) are not.
 */
export function checkSize(value: unknown): FormatVerdict {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, problem: 'must be a size string such as 20Gi' };
  // Up to 12 digits (and 6 decimals): beyond that a size is a typing slip, not a volume anyone has.
  const q = parseQuantity(text);
  if (q && q.whole.length <= 12) {
    if (isBinarySuffix(q.suffix) && q.fraction === '') return { ok: true };
    if (q.suffix === '' && q.fraction === '') return { ok: false, problem: `"${text}" is a number of bytes; a size needs a unit, e.g. ${text}Gi`, corrected: `${text}Gi` };
    if (q.suffix !== '' && !isBinarySuffix(q.suffix) && q.fraction.length <= 6) return { ok: true };
  }
  const m = sizeLike.exec(text);
  if (m) {
    const corrected = `${m[1]}${m[2]!.toUpperCase()}i`;
    return { ok: false, problem: `"${text}" is not a Kubernetes quantity; write it as ${corrected}`, corrected };
  }
  return { ok: false, problem: `"${text}" is not a size string such as 20Gi` };
}

/**
 * The ingress body-size annotation (2.3): an integer followed by `m`, where m is MiB (`100m`).
 * The controller reads `100` as bytes and `100M`/`100Mi`/`100mb` not at all.
 */
export function checkBodySize(value: unknown): FormatVerdict {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return { ok: false, problem: 'must be an integer followed by m (MiB), e.g. 100m', corrected: '100m' };
  if (/^[0-9]{1,9}m$/.test(text)) return { ok: true };
  const digits = /^([0-9]{1,9})(?:[ \t]{0,3}(?:[Mm][Ii]?[Bb]?))?$/.exec(text);
  if (digits) return { ok: false, problem: `"${text}" is not an integer followed by m (MiB)`, corrected: `${digits[1]}m` };
  return { ok: false, problem: `"${text}" is not an integer followed by m (MiB), e.g. 100m` };
}

/** `spec.timeoutSec` of the load balancer's backend configuration (2.3): an integer of seconds. */
export function checkTimeoutSec(value: unknown): FormatVerdict {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return { ok: true };
  if (typeof value === 'string') {
    const m = /^([0-9]{1,6})[ \t]{0,3}s?$/.exec(value.trim());
    if (m) return { ok: false, problem: `"${value}" is a string; timeoutSec is an integer of seconds`, corrected: Number(m[1]) };
  }
  return { ok: false, problem: 'must be a whole number of seconds, e.g. 1800 (the default is 30)' };
}

/** A JSON document, as the last-applied-configuration annotation must be (2.3, entry 25). */
export function checkJsonAnnotation(value: unknown): FormatVerdict {
  if (typeof value !== 'string') return { ok: false, problem: 'must be a JSON document held as a string' };
  try {
    JSON.parse(value);
    return { ok: true };
  } catch (err) {
    return { ok: false, problem: `is not valid JSON (${(err as Error).message.slice(0, 120)})` };
  }
}

/** The service's backend-config annotation (2.3): a JSON object whose key `default` names the backend configuration. */
export function checkBackendConfigAnnotation(value: unknown): FormatVerdict {
  const json = checkJsonAnnotation(value);
  if (!json.ok) return json;
  const parsed = JSON.parse(value as string) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, problem: 'must be a JSON object such as {"default": "<backend_config_name>"}' };
  const name = (parsed as Record<string, unknown>).default;
  if (typeof name !== 'string' || name === '') return { ok: false, problem: 'needs the key "default" naming the backend configuration, e.g. {"default": "devtron-backendconfig"}' };
  return { ok: true };
}

/** `http://` or `https://` and a host: the S3-compatible endpoint (2.2, rule 3). */
export function checkEndpoint(value: unknown): FormatVerdict {
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, problem: 'must be the URL of the S3-compatible storage, e.g. https://s3.example.com' };
  if (/^https?:\/\/[^\s/:]{1,253}(?::[0-9]{1,5})?(?:\/[^\s]{0,500})?$/.test(value)) return { ok: true };
  if (/^[^\s/:]{1,253}(?::[0-9]{1,5})?$/.test(value)) return { ok: false, problem: `"${value}" has no scheme; the endpoint is a URL`, corrected: `https://${value}` };
  return { ok: false, problem: `"${value}" is not a URL such as https://s3.example.com` };
}

/**
 * A bucket name as S3 and Cloud Storage take it: 3 to 63 lower-case letters, digits, dots and hyphens,
 * starting and ending with a letter or digit. `s3://bucket` and `gs://bucket` are common slips.
 */
export function checkBucket(value: unknown): FormatVerdict {
  if (typeof value !== 'string') return { ok: false, problem: 'must be a bucket name (a string)' };
  if (/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value)) return { ok: true };
  const bare = /^(?:s3|gs):\/\/([^/\s]{1,63})\/?$/.exec(value);
  if (bare) return { ok: false, problem: `"${value}" is a URL; the key takes the bucket name alone`, corrected: bare[1] };
  if (/[A-Z]/.test(value) && /^[A-Za-z0-9][A-Za-z0-9.-]{1,61}[A-Za-z0-9]$/.test(value)) return { ok: false, problem: `"${value}" has capitals; bucket names are lower case`, corrected: value.toLowerCase() };
  return { ok: false, problem: `"${value}" is not a bucket name (3–63 lower-case letters, digits, dots and hyphens)` };
}

/** An Azure storage account name: 3 to 24 lower-case letters and digits. */
export function checkAzureAccount(value: unknown): FormatVerdict {
  if (typeof value === 'string' && /^[a-z0-9]{3,24}$/.test(value)) return { ok: true };
  return { ok: false, problem: 'must be the storage account name: 3–24 lower-case letters and digits' };
}

/** An Azure blob container name: 3 to 63 lower-case letters, digits and single hyphens. */
export function checkAzureContainer(value: unknown): FormatVerdict {
  if (typeof value === 'string' && /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62}$/.test(value)) return { ok: true };
  return { ok: false, problem: 'must be a container name: 3–63 lower-case letters, digits and single hyphens' };
}

/** A cloud region such as `us-east-1` (S3). Free text is allowed for S3-compatible storage, so only blanks fail. */
export function checkRegion(value: unknown): FormatVerdict {
  if (typeof value === 'string' && /^[A-Za-z0-9-]{1,40}$/.test(value)) return { ok: true };
  return { ok: false, problem: 'must be a region such as us-east-1' };
}
