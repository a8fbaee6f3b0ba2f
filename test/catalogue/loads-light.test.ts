import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The packages a module loads when it is imported, following its static imports through src/
 * (`import type` is erased, so it loads nothing; dynamic imports load on demand, so they are left out).
 */
function packagesLoadedBy(entry: string): Map<string, string> {
  const loaded = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const node of source.statements) {
      const runtime =
        (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) || (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier !== undefined);
      if (!runtime) continue;
      const spec = ((node as ts.ImportDeclaration | ts.ExportDeclaration).moduleSpecifier as ts.StringLiteral).text;
      if (!spec.startsWith('.')) {
        if (!spec.startsWith('node:')) loaded.set(spec, relative(root, file));
        continue;
      }
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (existsSync(target)) visit(target);
    }
  };
  visit(resolve(root, entry));
  return loaded;
}

describe('loading the catalogue', () => {
  it("loads none of the step kinds' cluster, database, queue or Slack code (the CLI's match and explain load it)", () => {
    const loaded = packagesLoadedBy('src/catalogue/index.ts');
    const heavy = ['@kubernetes/client-node', 'pg', 'bullmq', 'ioredis', '@slack/bolt'].filter((p) => loaded.has(p));
    expect(heavy.map((p) => `${p} (from ${loaded.get(p)})`)).toEqual([]);
  });

  it('would see them if it did: the step registry loads the Kubernetes client and the database driver', () => {
    const loaded = packagesLoadedBy('src/remedies/steps/registry.ts');
    expect(loaded.has('@kubernetes/client-node')).toBe(true);
    expect(loaded.has('pg')).toBe(true);
  });
});
