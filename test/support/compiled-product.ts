/**
 * Vitest's global setup: the product compiled once per run, for the tests that start it as a process
 * (`platform-medic worker`, `match`, `terminal`…; see medic-process.ts).
 *
 * Under `node --import tsx`, every module a process loads, the Kubernetes client's thousand files
 * included, goes through tsx's loader thread, and each .ts file through esbuild: a worker took about
 * 3.8 s to start on this project's 2-core CI machine, 1.7 s from the same code compiled beforehand.
 * So src/ is compiled here with tsx's own esbuild settings (each file alone, as tsx does) into a
 * temporary copy of the checkout whose other entries (node_modules, deploy, manifests, package.json…)
 * are links to the real ones: paths the product finds beside its own modules resolve as they do in the
 * checkout, and the process runs from the checkout's directory as before.
 */
import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The temporary copy of the checkout whose src/ holds the compiled product. */
    compiledProduct: string;
  }
}

const root = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * Compiles src/ into `out`/src, with the options tsx gives esbuild (target this Node, names kept);
 * any other file under src/ is copied beside the modules, where the product would look for it.
 */
async function compile(out: string): Promise<void> {
  const files = filesUnder(join(root, 'src'));
  for (const file of files.filter((f) => !f.endsWith('.ts'))) cpSync(file, join(out, relative(root, file)));
  await build({
    entryPoints: files.filter((f) => f.endsWith('.ts')),
    outdir: join(out, 'src'),
    outbase: join(root, 'src'),
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    keepNames: true,
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
}

export default async function setup(project: TestProject): Promise<() => void> {
  const out = mkdtempSync(join(tmpdir(), 'medic-compiled-'));
  // Readable by every user, as the checkout is: a test starts the product as nobody (test/cli.test.ts).
  chmodSync(out, 0o755);
  for (const entry of readdirSync(root)) if (entry !== 'src') symlinkSync(join(root, entry), join(out, entry));
  await compile(out);
  project.provide('compiledProduct', out);
  // In watch mode, a rerun starts processes from the sources as they are now.
  project.onTestsRerun(() => compile(out));
  return () => rmSync(out, { recursive: true, force: true });
}
