import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogue } from '../catalogue/index.js';
import { ConfigError, loadConfig, type ClusterConfig } from '../config.js';
import { fileReason } from '../errors.js';
import { defaultPlatformNames, type PlatformNames } from '../platform-names.js';
import { closestWord } from '../spelling.js';
import { workerRbac } from './rbac.js';
import { renderRbacYaml } from './rbac-manifest.js';

/**
 * `npm run gen:rbac`: writes deploy/rbac.yaml and its copy in the worker's base from the catalogue,
 * for the names of a standard install. `npm run gen:rbac -- --config FILE [--out DIR]`: writes
 * DIR/rbac-<cluster>.yaml for each cluster of an admin's config file, with that cluster's namespaces
 * and names, so adding a cluster with other names needs a command, not code.
 */
export const rbacYamlPath = fileURLToPath(new URL('../../deploy/rbac.yaml', import.meta.url));
const baseCopyPath = fileURLToPath(new URL('../../deploy/base/worker/rbac.yaml', import.meta.url));

/** The worker's RBAC for one cluster's names, as YAML. */
export const rbacYamlFor = (names: PlatformNames): string => renderRbacYaml(workerRbac(catalogue, names), names);

export function currentRbacYaml(): string {
  return rbacYamlFor(defaultPlatformNames);
}

const usage = 'usage: gen:rbac [--config FILE [--out DIR]]';

/** Reads `--name VALUE` pairs; anything else is a usage problem. */
function options(args: readonly string[]): Record<string, string> | { problem: string } {
  const found: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]!;
    const value = args[i + 1];
    if (name !== '--config' && name !== '--out') {
      const meant = closestWord(name, ['--config', '--out']);
      // Quoted as JSON, so a control character typed in it is shown escaped, not sent to the terminal.
      return { problem: `unknown argument ${JSON.stringify(name.slice(0, 40))}${meant ? `; did you mean ${meant}?` : ''} (${usage})` };
    }
    if (value === undefined || value.startsWith('--')) return { problem: `${name} needs a value (${usage})` };
    found[name.slice(2)] = value;
  }
  if (found['out'] !== undefined && found['config'] === undefined) return { problem: `--out goes with --config (${usage})` };
  return found;
}

/** Runs the command; the exit code: 0 written, 2 a bad argument, config file or --out directory (one line on stderr). */
export async function runGenRbac(args: readonly string[], io: { stdout: { write(s: string): unknown }; stderr: { write(s: string): unknown } }): Promise<number> {
  const opts = options(args);
  if ('problem' in opts) {
    io.stderr.write(`gen:rbac: ${opts.problem}\n`);
    return 2;
  }
  if (opts['config'] === undefined) {
    const yaml = currentRbacYaml();
    for (const path of [rbacYamlPath, baseCopyPath]) {
      await writeFile(path, yaml);
      io.stdout.write(`wrote ${path}\n`);
    }
    return 0;
  }
  let clusters: readonly ClusterConfig[];
  try {
    // Only the file counts: the admin's shell environment must not change the RBAC written.
    clusters = loadConfig({ file: opts['config'], env: {} }).clusters;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // Each run of white space that holds a line break becomes one space: one line on standard error.
    io.stderr.write(`gen:rbac: ${err.problems.join('; ').replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run))}\n`);
    return 2;
  }
  const out = resolve(opts['out'] ?? '.');
  // A directory that cannot be made or written (a file there, no permission) is bad input, named: exit 2.
  const cannot = (path: string, err: unknown): number => {
    const reason = (err as { code?: string }).code === 'EEXIST' ? 'it is a file, not a directory' : (fileReason(err) ?? (err as Error).message.split('\n')[0]);
    io.stderr.write(`gen:rbac: cannot write ${path}: ${reason}\n`);
    return 2;
  };
  try {
    await mkdir(out, { recursive: true });
  } catch (err) {
    return cannot(out, err);
  }
  for (const cluster of clusters) {
    const path = join(out, `rbac-${cluster.name}.yaml`);
    try {
      await writeFile(path, rbacYamlFor(cluster));
    } catch (err) {
      return cannot(path, err);
    }
    const namespaces = Object.keys(workerRbac(catalogue, cluster).namespaceRules).sort().join(', ');
    io.stdout.write(`wrote ${path} (cluster ${cluster.name}: namespaces ${namespaces})\n`);
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runGenRbac(process.argv.slice(2), process);
}
