import { createHash } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import { networkCode } from '../../net-errors.js';
import type { StepContext } from './context.js';
import { bundledManifest, bundleRoot, type ManifestName } from './manifest-bundle.js';

export { manifestName, type ManifestName } from './manifest-bundle.js';
import { platformVersion } from './version.js';

/**
 * Where entries 1 and 2 get the platform's manifest, in this order: the admin's ConfigMap
 * (`manifestConfigMap` in the platform namespace, key `migrator.yaml` or `rollout.yaml`) when it
 * exists; a mirror when `manifestBaseUrl` is set; otherwise the files bundled with platform-medic for
 * the installed version (the installer's LTAG). Only a mirror touches the network.
 */

/** Where each manifest of the guide lives under {manifest_url}, as in the platform's repository. */
export const manifestPaths: Record<ManifestName, string> = {
  migrator: 'manifests/yamls/migrator.yaml',
  rollout: 'manifests/yamls/rollout.yaml',
};

/** The ConfigMap key an admin puts a manifest under. */
export const configMapKey = (manifest: ManifestName): string => `${manifest}.yaml`;

const maxBytes = 5 * 1024 * 1024;
const fetchTimeoutMs = 15_000;

/** One object of a manifest: what the YAML says, untyped. */
export interface RawObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown };
  [key: string]: unknown;
}

export type ManifestOrigin = 'bundled' | 'configmap' | 'mirror';

/** A manifest ready to plan from: its exact text's sha256 (what the plan pins) and its objects. */
export interface LocatedManifest {
  readonly origin: ManifestOrigin;
  /** What the run reads again: the bundled file, `namespace/name` of the ConfigMap, or the URL. */
  readonly location: string;
  /** The platform version it was chosen for; empty for a ConfigMap, which is used whatever the version. */
  readonly version: string;
  /** Where it came from, for the plan: the bundled file's upstream address and commit, the ConfigMap, the URL. */
  readonly described: string;
  readonly sha256: string;
  readonly objects: RawObject[];
}

/** `{version}` in a mirror's address is the installed version, as the installer itself builds raw URLs from LTAG. */
export function manifestUrl(baseUrl: string, manifest: ManifestName, version = ''): string {
  const base = baseUrl.replaceAll('{version}', version);
  return new URL(manifestPaths[manifest], base.endsWith('/') ? base : `${base}/`).toString();
}

const sha256Of = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** Parses a multi-document YAML manifest; a message instead when it cannot. */
export function parseManifest(text: string, where: string): RawObject[] | { problem: string } {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return { problem: `${where} is not a YAML stream` };
  const broken = docs.find((d) => d.errors.length > 0);
  if (broken) return { problem: `${where} is not valid YAML: ${broken.errors[0]?.message.split('\n')[0]!.replace(/:$/, '') ?? 'parse error'}` };
  return docs.map((d) => d.toJS() as unknown).filter((o): o is RawObject => typeof o === 'object' && o !== null && !Array.isArray(o));
}

/** Fetches a manifest's text from a mirror; a message instead when it cannot. */
async function fetchText(url: string): Promise<string | { problem: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(fetchTimeoutMs), redirect: 'follow' });
    if (!res.ok) return { problem: `fetching ${url} answered HTTP ${res.status}` };
    const body = Buffer.from(await res.arrayBuffer());
    if (body.length > maxBytes) return { problem: `${url} is larger than ${maxBytes / 1024 / 1024} MiB` };
    return body.toString('utf8');
  } catch (err) {
    const why = (err as Error).name === 'TimeoutError' ? `no answer within ${fetchTimeoutMs / 1000} s` : (networkCode(err) ?? ((err as { cause?: Error }).cause?.message || (err as Error).message));
    return { problem: `cannot fetch ${url} (${why})` };
  }
}

function located(origin: ManifestOrigin, location: string, version: string, described: string, text: string): LocatedManifest | { problem: string } {
  const objects = parseManifest(text, location);
  return 'problem' in objects ? objects : { origin, location, version, described, sha256: sha256Of(text), objects };
}

async function fromConfigMap(ctx: StepContext, manifest: ManifestName): Promise<LocatedManifest | { problem: string } | undefined> {
  const ns = ctx.names.platformNamespace;
  const name = ctx.names.manifestConfigMap;
  const cm = await ctx.gateway.manifests.configMapData(ns, name);
  const text = cm?.data[configMapKey(manifest)];
  if (text === undefined) return undefined;
  const where = `ConfigMap ${ns}/${name} key ${configMapKey(manifest)}`;
  return located('configmap', `${ns}/${name}`, '', `${where} (the admin's override)`, text);
}

async function fromMirror(ctx: StepContext, manifest: ManifestName, version: string): Promise<LocatedManifest | { problem: string }> {
  const url = manifestUrl(ctx.names.manifestBaseUrl ?? '', manifest, version);
  const text = await fetchText(url);
  if (typeof text !== 'string') return text;
  // A mirror may serve a patched file on purpose; the plan says when it is not the upstream release's.
  const upstream = await bundledManifest(version, manifest, ctx.manifestBundle ?? bundleRoot());
  const differs = 'sha256' in upstream && upstream.sha256 !== sha256Of(text) ? `; not the upstream file of ${version} (sha256 ${upstream.sha256.slice(0, 12)}…)` : '';
  return located('mirror', url, version, `mirror ${url} (manifestBaseUrl)${differs}`, text);
}

async function fromBundle(ctx: StepContext, manifest: ManifestName, version: string): Promise<LocatedManifest | { problem: string }> {
  const found = await bundledManifest(version, manifest, ctx.manifestBundle ?? bundleRoot());
  if ('problem' in found) return found;
  const { upstream } = found;
  return located('bundled', found.file, version, `bundled with platform-medic (${found.file}), from ${upstream.source} (${upstream.tag}, commit ${upstream.commit.slice(0, 12)})`, found.text);
}

/** Finds the manifest a plan applies, by the order above; a message instead when there is none. */
export async function locateManifest(ctx: StepContext, manifest: ManifestName): Promise<LocatedManifest | { problem: string }> {
  const own = await fromConfigMap(ctx, manifest);
  if (own) return own;
  const found = await platformVersion(ctx);
  if ('problem' in found) return { problem: `${found.problem}, and the version chooses the manifest (or put it in ConfigMap ${ctx.names.platformNamespace}/${ctx.names.manifestConfigMap}, key ${configMapKey(manifest)})` };
  return ctx.names.manifestBaseUrl ? fromMirror(ctx, manifest, found.version) : fromBundle(ctx, manifest, found.version);
}

/** Reads again, for the run, the manifest a plan located: from the same place, never another. */
export async function relocateManifest(ctx: StepContext, manifest: ManifestName, planned: Pick<LocatedManifest, 'origin' | 'location' | 'version'>): Promise<LocatedManifest | { problem: string }> {
  switch (planned.origin) {
    case 'configmap':
      return (await fromConfigMap(ctx, manifest)) ?? { problem: `ConfigMap ${planned.location} no longer holds ${configMapKey(manifest)}` };
    case 'mirror': {
      const text = await fetchText(planned.location);
      return typeof text === 'string' ? located('mirror', planned.location, planned.version, `mirror ${planned.location}`, text) : text;
    }
    case 'bundled':
      return fromBundle(ctx, manifest, planned.version);
  }
}
