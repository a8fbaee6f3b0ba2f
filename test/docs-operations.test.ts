import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clusterRows } from './support/config-table.js';

/**
 * docs/operations.md is what an admin follows: every cluster key reaches them through it (a link to
 * the README's generated table, not a second copy), adding a cluster with other names is a command,
 * and the manifests of entries 1 and 2 are explained with both overrides.
 */

const operations = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = (title: string) => {
  const start = operations.indexOf(`\n${title}\n`);
  const next = operations.indexOf('\n## ', start + 1);
  return start < 0 ? '' : operations.slice(start, next < 0 ? undefined : next);
};

describe('docs/operations.md', () => {
  it("links to the README's table of cluster keys, which exists and lists every key", () => {
    expect(operations).toContain('(../README.md#cluster-keys)');
    expect(readme).toMatch(/\n### Cluster keys\n[^#]*\| cluster key \| default \| meaning \|/);
    for (const key of ['manifestBaseUrl', 'manifestConfigMap', 'databasePasswordKey', 'dashboardCatalogueUrl']) {
      expect(clusterRows().some((r) => r[0] === `\`${key}\``), key).toBe(true);
      expect(operations, key).toContain(`\`${key}\``);
    }
  });

  it('"Add a cluster" gives a command that writes the RBAC for the configured names, not code', () => {
    const add = section('## Add a cluster');
    expect(add).toContain('npm run gen:rbac -- --config ');
    expect(add).not.toMatch(/workerRbac\(|src\/remedies\/rbac\.ts/);
  });

  it('says where the manifests of entries 1 and 2 come from, and how to override them (ConfigMap, mirror and its egress rule)', () => {
    const manifests = section("### The platform's manifests (entries 1 and 2)");
    expect(manifests).toContain('manifests/index.json');
    expect(manifests).toContain('kubectl -n devtroncd create configmap platform-medic-manifests --from-file=migrator.yaml');
    expect(manifests).toContain('`manifestBaseUrl`');
    expect(manifests).toMatch(/target: \{ kind: NetworkPolicy, name: platform-medic-worker \}[\s\S]*port: 443/);
  });
});
