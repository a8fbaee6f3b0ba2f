import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

/** Every relative import of the files under `folder`, as `file → imported`, both relative to src. */
function importsOf(folder: string): { file: string; imported: string }[] {
  return sources(join(src, folder)).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
    return specifiers.map((s) => ({ file: relative(src, path), imported: relative(src, resolve(dirname(path), s)) }));
  });
}

describe('the direction of the arrows between the remedies and the queues', () => {
  it('remedies (step kinds, planner, runner, plans) import nothing of the queues or the lifecycle', () => {
    const upward = importsOf('remedies').filter((i) => i.imported.startsWith('jobs/'));
    expect(upward).toEqual([]);
  });

  it('the queues and the lifecycle import no surface: no Slack, no listeners, no terminal', () => {
    const surfaces = ['slack/', 'handlers/', 'terminal/', 'commands/', 'views/', 'core/'];
    const upward = importsOf('jobs').filter((i) => surfaces.some((s) => i.imported.startsWith(s)));
    expect(upward).toEqual([]);
  });
});
