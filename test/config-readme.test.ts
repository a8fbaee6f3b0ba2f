import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clusterRows, keyRows, row } from './support/config-table.js';

/**
 * The README's configuration tables are the declarations of src/config/keys.ts and
 * src/config/cluster.ts, row for row: a key added, renamed or given a new default or variable without
 * the README (or the other way round) fails here. `npx tsx test/support/config-table.ts` prints the
 * tables as they must read.
 */

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The rows of the Markdown table whose header line is exactly `header`, as printed cells. */
function table(header: string): string[] {
  const lines = readme.split('\n');
  const at = lines.indexOf(header);
  if (at < 0) return [];
  const rows: string[] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.trim());
  }
  return rows;
}

describe('the README\'s configuration tables', () => {
  it('list every key of the environment and the file with its variable, file key, default and meaning', () => {
    const documented = table('| variable | file key | default | meaning |');
    expect(documented.length).toBeGreaterThan(20);
    expect(documented).toEqual(keyRows().map(row));
  });

  it('list every key of a cluster, including each platform name, with its default and meaning', () => {
    const documented = table('| cluster key | default | meaning |');
    expect(documented.length).toBeGreaterThan(20);
    expect(documented).toEqual(clusterRows().map(row));
    for (const key of ['manifestBaseUrl', 'databasePasswordKey', 'dashboardCatalogueUrl', 'approval.expiresMinutes']) {
      expect(documented.some((r) => r.startsWith(`| \`${key}\` |`)), key).toBe(true);
    }
  });

  it('would notice a key missing from the README: the declaration has rows the README must carry', () => {
    const documented = new Set(table('| variable | file key | default | meaning |'));
    const rows = keyRows().map(row);
    expect(rows.filter((r) => !documented.has(r))).toEqual([]);
    expect(rows.some((r) => r.startsWith('| `REDIS_URL` | `redisUrl` | `redis://127.0.0.1:6379` |'))).toBe(true);
  });
});
