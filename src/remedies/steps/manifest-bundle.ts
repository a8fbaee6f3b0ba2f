import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { compareVersions, parseVersion } from './version.js';

/**
 * The platform's manifests shipped with platform-medic (manifests/ at the package's root, beside src/
 * or dist/): the upstream files of each release we support, one copy per distinct content, and an
 * index pinning each file's sha256 and saying where it came from. The worker needs no network for
 * entries 1 and 2: its NetworkPolicy allows no public HTTPS, and the terminal demo runs offline.
 */

/** A manifest the guide applies: `migrator.yaml` (entry 1) or `rollout.yaml` (entry 2). */
export const manifestName = z.enum(['migrator', 'rollout']);
export type ManifestName = z.infer<typeof manifestName>;

const fileSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  repository: z.string(),
  tag: z.string(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  path: z.string(),
  source: z.string().url(),
});
const indexSchema = z.object({
  versions: z.record(z.string(), z.object({ migrator: z.string(), rollout: z.string() })),
  files: z.record(z.string(), fileSchema),
});
type BundleIndex = z.infer<typeof indexSchema>;
export type BundledFile = z.infer<typeof fileSchema>;

/** The first ancestor of this module's folder holding manifests/index.json: the repository or the image's /app. */
function findBundle(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'manifests');
    if (existsSync(join(candidate, 'index.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return resolve('manifests');
    dir = parent;
  }
}

let defaultRoot: string | undefined;
/** Where the bundled manifests are, unless a test points elsewhere. */
export const bundleRoot = (): string => (defaultRoot ??= findBundle());

async function readIndex(root: string): Promise<BundleIndex | { problem: string }> {
  try {
    const parsed = indexSchema.safeParse(JSON.parse(await readFile(join(root, 'index.json'), 'utf8')));
    return parsed.success ? parsed.data : { problem: `the index of the bundled manifests (${join(root, 'index.json')}) is not valid: ${parsed.error.issues[0]?.message ?? ''}` };
  } catch (err) {
    return { problem: `the bundled manifests cannot be read (${(err as Error).message.split('\n')[0]}); this installation of platform-medic is incomplete` };
  }
}

/** The versions the bundle holds manifests for, oldest first: `v0.6.0, v0.6.1, …`. */
function versionsOf(index: BundleIndex): string[] {
  return Object.keys(index.versions).sort((a, b) => compareVersions(parseVersion(a) ?? [], parseVersion(b) ?? []));
}

/** A bundled manifest, its text checked against the pinned sha256. */
export interface BundledManifest {
  /** The file inside the bundle, e.g. `v0.6.2/rollout.yaml`. */
  readonly file: string;
  readonly text: string;
  readonly sha256: string;
  readonly upstream: BundledFile;
}

/**
 * The manifest of one platform version, exactly as the index pins it. A message instead when the
 * version is not bundled (naming those that are) or the file does not match its pinned digest.
 */
export async function bundledManifest(version: string, manifest: ManifestName, root = bundleRoot()): Promise<BundledManifest | { problem: string }> {
  const index = await readIndex(root);
  if ('problem' in index) return index;
  const file = index.versions[version]?.[manifest];
  if (!file) {
    return {
      problem: `platform-medic carries no ${manifest} manifest for platform ${version}; it has them for ${versionsOf(index).join(', ')}. Give it the file in a ConfigMap or through a mirror (manifestBaseUrl), as docs/operations.md says`,
    };
  }
  const pinned = index.files[file];
  if (!pinned) return { problem: `the index of the bundled manifests names ${file} for ${version} but pins no digest for it` };
  let text: Buffer;
  try {
    text = await readFile(join(root, file));
  } catch {
    return { problem: `the bundled manifest ${file} is missing; this installation of platform-medic is incomplete` };
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  if (sha256 !== pinned.sha256) {
    return { problem: `the bundled manifest ${file} does not match its pinned sha256 (${pinned.sha256.slice(0, 12)}…, the file has ${sha256.slice(0, 12)}…); it was changed after release, so it is not applied` };
  }
  return { file, text: text.toString('utf8'), sha256, upstream: pinned };
}
