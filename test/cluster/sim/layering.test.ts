import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The simulated cluster is two parts that can each be read alone: a generic Kubernetes API server
 * (sim/apiserver) and the platform's world (sim/platform), which builds on it. The API server must not
 * know the platform: what it needs from it (what happens inside pods) comes through pod-runtime.ts.
 */
const src = resolve(import.meta.dirname, '../../../src');
const apiserver = join(src, 'cluster/sim/apiserver');

/** Every relative import of a file under apiserver/, as a path from src/. */
function relativeImports(): Array<{ file: string; target: string }> {
  return readdirSync(apiserver, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => {
      const file = join(apiserver, name);
      const specifiers = [...readFileSync(file, 'utf8').matchAll(/\bfrom '(\.[^']*)'/g)].map((m) => m[1] ?? '');
      return specifiers.map((s) => ({ file: relative(src, file), target: relative(src, resolve(dirname(file), s)) }));
    });
}

describe('the simulated API server', () => {
  it('imports only itself and the low shared modules, never the platform', () => {
    const imports = relativeImports();
    // Guards the scan itself: the server does import its store.
    expect(imports).toContainEqual({ file: 'cluster/sim/apiserver/server.ts', target: 'cluster/sim/apiserver/store.js' });
    const allowedOutside = ['quantity.js'];
    const outside = imports.filter((i) => !i.target.startsWith('cluster/sim/apiserver/') && !allowedOutside.includes(i.target));
    expect(outside).toEqual([]);
  });
});
