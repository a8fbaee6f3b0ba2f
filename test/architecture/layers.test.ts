import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, importGraph } from './import-graph.js';

const srcDir = join(import.meta.dirname, '../../src');
const { files, edges } = importGraph(srcDir);

/**
 * The layers of src/, lowest first (README, "How it works"). A file may import its own layer and
 * the layers below it, never one above. The first rule whose prefix matches a file's path wins.
 */
const layers: readonly (readonly string[])[] = [
  // 0: what everything may use: settings, logging, errors, names, small pure helpers.
  ['config', 'logger.ts', 'redact.ts', 'redact/', 'known-secrets.ts', 'errors.ts', 'net-errors.ts', 'platform-names.ts', 'platform-names-schema.ts', 'quantity.ts', 'spelling.ts', 'cli-flags.ts'],
  // 1: the cluster, seen through the Kubernetes client; the simulated cluster, a cluster of its own.
  ['cluster/'],
  // 2: the vocabulary remedies are written in: step kinds (one file each), plans, the dashboard's and
  //    the database's clients. The registry's check against the catalogue sits above the catalogue.
  ['remedies/steps/index.ts:4', 'remedies/steps/', 'remedies/plan.ts', 'remedies/dashboard/', 'remedies/database/', 'doctor/detectors/'],
  // 3: the guide as data, written in that vocabulary, and the pure readers of text: matcher, values assistant.
  ['catalogue/', 'matching/', 'values/'],
  // 4: what runs the catalogue: planner, runner, RBAC derived from it; the doctor's scan.
  ['remedies/', 'doctor/'],
  // 5: queues, the worker and the request lifecycle; health and metrics of both processes.
  ['jobs/', 'observability/'],
  // 6: the commands, checked once, answered as surface-neutral views.
  ['core/'],
  // 7: renderers of those views.
  ['views/'],
  // 8: the surfaces.
  ['slack/', 'handlers/', 'terminal/', 'commands/'],
  // 9: composition roots.
  ['app.ts', 'bot.ts', 'cli.ts'],
];

/** A rule `path:N` places that one file in layer N whatever its folder's layer. */
const pinned = new Map(layers.flat().filter((p) => p.includes(':')).map((p) => [p.split(':')[0]!, Number(p.split(':')[1])]));

function layerOf(file: string): number {
  const pin = pinned.get(file);
  if (pin !== undefined) return pin;
  const i = layers.findIndex((prefixes) => prefixes.some((p) => file === p || file.startsWith(p.endsWith('/') ? p : `${p}/`) || file === `${p}.ts`));
  return i;
}

describe('the import graph of src/ (read with the TypeScript parser)', () => {
  it('reads a real graph: every file is placed in a layer, and the composition root reaches the surfaces', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => layerOf(f) < 0)).toEqual([]);
    expect(edges.some((e) => e.from === 'cli.ts')).toBe(true);
  });

  it('has no circle of imports, type-only imports included', () => {
    expect(circles(files, edges)).toEqual([]);
  });

  it('has no import that climbs from a lower layer to a higher one', () => {
    const upward = edges.filter((e) => layerOf(e.to) > layerOf(e.from)).map((e) => `${e.from} → ${e.to}${e.typeOnly ? ' (types)' : ''}`);
    expect(upward).toEqual([]);
  });

  it('keeps every file under src/ to about 300 lines', () => {
    const long = files.map((f) => ({ f, lines: readFileSync(join(srcDir, f), 'utf8').split('\n').length })).filter((x) => x.lines > 320);
    expect(long).toEqual([]);
  });
});
