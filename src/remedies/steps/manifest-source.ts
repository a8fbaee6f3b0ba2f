import { networkCode } from '../../net-errors.js';
import { createHash } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';

/** A manifest the guide applies from {manifest_url}. */
export const manifestName = z.enum(['migrator', 'rollout']);
export type ManifestName = z.infer<typeof manifestName>;

/** Where each manifest of the guide lives under {manifest_url}. */
export const manifestPaths: Record<ManifestName, string> = {
  migrator: 'manifests/yamls/migrator.yaml',
  rollout: 'manifests/yamls/rollout.yaml',
};

const maxBytes = 5 * 1024 * 1024;
const fetchTimeoutMs = 15_000;

/** One object of a manifest: what the YAML says, untyped. */
export interface RawObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown };
  [key: string]: unknown;
}

/** A fetched manifest: its exact text's sha256 (what the plan pins) and its objects. */
export interface FetchedManifest {
  readonly url: string;
  readonly sha256: string;
  readonly objects: RawObject[];
}

export function manifestUrl(baseUrl: string, manifest: ManifestName): string {
  return new URL(manifestPaths[manifest], baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
}

/** Fetches and parses a multi-document YAML manifest; a message instead when it cannot. */
export async function fetchManifest(url: string): Promise<FetchedManifest | { problem: string }> {
  let text: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(fetchTimeoutMs), redirect: 'follow' });
    if (!res.ok) return { problem: `fetching ${url} answered HTTP ${res.status}` };
    const body = Buffer.from(await res.arrayBuffer());
    if (body.length > maxBytes) return { problem: `${url} is larger than ${maxBytes / 1024 / 1024} MiB` };
    text = body.toString('utf8');
  } catch (err) {
    const why = (err as Error).name === 'TimeoutError' ? `no answer within ${fetchTimeoutMs / 1000} s` : (networkCode(err) ?? ((err as { cause?: Error }).cause?.message || (err as Error).message));
    return { problem: `cannot fetch ${url} (${why})` };
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return { problem: `${url} is not a YAML stream` };
  const broken = docs.find((d) => d.errors.length > 0);
  if (broken) return { problem: `${url} is not valid YAML: ${broken.errors[0]?.message.split('\n')[0] ?? 'parse error'}` };
  const objects = docs.map((d) => d.toJS() as unknown).filter((o): o is RawObject => typeof o === 'object' && o !== null && !Array.isArray(o));
  return { url, sha256, objects };
}
