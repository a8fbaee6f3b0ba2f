import { z } from 'zod';
import { clusterSchema } from '../../src/config/cluster.js';
import { declaredKeys } from '../../src/config/keys.js';

/**
 * The README's configuration tables as the declarations say they must read: one row per key, cells
 * as in the README. `npx tsx test/support/config-table.ts` prints them to paste into the README.
 */

/** A default as the README shows it. */
function shown(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return `\`${value}\``;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((v) => `\`${String(v)}\``).join(', ');
  return String(value);
}

function defaultOf(schema: z.ZodType): unknown {
  const r = schema.safeParse(undefined);
  return r.success ? r.data : undefined;
}

/** `| variable | file key | default | meaning |` rows of the keys of the environment and the file. */
export function keyRows(): string[][] {
  return declaredKeys.map((k) => [
    k.env ? `\`${k.env}\`` : '—',
    k.inFile ? `\`${k.path}\`` : '—',
    k.shownDefault ?? shown(defaultOf(k.schema)),
    k.description,
  ]);
}

/** `| file key | default | meaning |` rows of the keys of each entry of `clusters`. */
export function clusterRows(): string[][] {
  const rows: string[][] = [];
  const walk = (shape: Record<string, z.ZodType>, prefix: string): void => {
    for (const [name, schema] of Object.entries(shape)) {
      const meta = z.globalRegistry.get(schema) as { description?: string; shownDefault?: string } | undefined;
      const inner = schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault ? (schema.unwrap() as z.ZodType) : schema;
      if (!meta?.description && inner instanceof z.ZodObject) {
        walk(inner.shape as Record<string, z.ZodType>, `${prefix}${name}.`);
        continue;
      }
      rows.push([`\`${prefix}${name}\``, meta?.shownDefault ?? shown(defaultOf(schema)), meta?.description ?? '']);
    }
  };
  walk(clusterSchema.shape as Record<string, z.ZodType>, '');
  return rows;
}

/** A Markdown table row. */
export function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(['| variable | file key | default | meaning |', '|---|---|---|---|', ...keyRows().map(row)].join('\n'));
  console.log();
  console.log(['| cluster key | default | meaning |', '|---|---|---|', ...clusterRows().map(row)].join('\n'));
}
