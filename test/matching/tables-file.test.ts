import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { buildAutomaton } from '../../src/matching/automaton.js';
import { compile, literalsOf, type CompiledCatalogue } from '../../src/matching/literals.js';
import { scan } from '../../src/matching/scan.js';
import { encodeTables, loadTables, tablesKey, TABLES_FILE, writeTables } from '../../src/matching/tables-file.js';
import { loadManifest, pastesDir } from './devset.js';

/**
 * The tables `npm run build` writes are read back exactly as compiled, and only when they were compiled
 * from the very literals (and by the very compiler) now in use: otherwise the matcher compiles afresh.
 */

const dir = mkdtempSync(join(tmpdir(), 'medic-tables-'));
const { literals } = literalsOf(catalogue);
const fresh = buildAutomaton(literals);

/** Writes the catalogue's tables to a new file and returns its path. */
function written(name: string): string {
  const file = join(dir, name);
  writeTables(fresh, literals, file);
  return file;
}

/** What a scan found, without the compiled catalogue it points back to. */
function found(text: string, compiled: CompiledCatalogue) {
  const { hits, lines } = scan(text, compiled);
  // As one string: deep equality over the hits of a long paste is slow for no gain.
  const nearby = hits.evidence.map((_, entry) => hits.nearby(entry));
  return JSON.stringify({ lines, evidence: hits.evidence, nearby, markers: hits.markers });
}

describe('the matcher tables compiled at build time', () => {
  it('read back, are the tables a fresh compile gives, array for array', () => {
    const loaded = loadTables(literals, written('same.bin'));
    expect(loaded).toBeDefined();
    // Compared as bytes: element by element, a table of a third of a million entries takes seconds.
    const bytes = (v: unknown) => (ArrayBuffer.isView(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : v);
    const fields = (a: object) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, bytes(v)]));
    expect(fields(loaded!)).toEqual(fields(fresh));
    expect(loaded!.delta.length).toBeGreaterThan(1000);
  });

  it('find in every paste of the dev set (and in odd text) what freshly compiled tables find', () => {
    const compiled = compile(catalogue);
    const loaded: CompiledCatalogue = { ...compiled, automaton: loadTables(literals, written('scan.bin'))! };
    // Not .not.toBe: on distinct objects it compares them deeply, seconds over these tables.
    expect(loaded.automaton === compiled.automaton).toBe(false);
    const texts = (loadManifest() ?? []).map((p) => readFileSync(join(pastesDir, p.file), 'utf8'));
    expect(texts.length).toBeGreaterThan(20);
    texts.push('\u001b[31mImagePullBackOff\u001b[0m {"msg":"Failed\\u0020to\\tupdate"}\r\n\\ \u00e9 \u2028 x'.repeat(3));
    for (const text of texts) expect(found(text, loaded)).toBe(found(text, compiled));
  });

  it('are not used when the catalogue changed since: one signature more, one less, or reordered', () => {
    const file = written('stale.bin');
    expect(loadTables([...literals, 'a signature added since'], file)).toBeUndefined();
    expect(loadTables(literals.slice(1), file)).toBeUndefined();
    expect(loadTables([literals[1]!, literals[0]!, ...literals.slice(2)], file)).toBeUndefined();
    const edited = catalogue.map((e, i) => (i === 0 ? { ...e, signatures: { ...e.signatures, errors: [...e.signatures.errors, 'an error added since'] } } : e));
    expect(loadTables(literalsOf(edited).literals, file)).toBeUndefined();
  });

  it('are not used when the compiler changed since (another key), nor when the file is cut short, lengthened or missing', () => {
    const other = Buffer.from(tablesKey(literals));
    other[0] = other[0]! ^ 1;
    const file = join(dir, 'other-compiler.bin');
    writeFileSync(file, encodeTables(fresh, other));
    expect(loadTables(literals, file)).toBeUndefined();

    const whole = readFileSync(written('whole.bin'));
    const cut = join(dir, 'cut.bin');
    writeFileSync(cut, whole.subarray(0, whole.length - 4));
    expect(loadTables(literals, cut)).toBeUndefined();
    const longer = join(dir, 'longer.bin');
    writeFileSync(longer, Buffer.concat([whole, Buffer.alloc(4)]));
    expect(loadTables(literals, longer)).toBeUndefined();
    const header = join(dir, 'header.bin');
    writeFileSync(header, whole.subarray(0, 20));
    expect(loadTables(literals, header)).toBeUndefined();
    expect(loadTables(literals, join(dir, 'none.bin'))).toBeUndefined();
  });

  it('are looked for beside the matcher, so the built bin finds the ones the build wrote beside it', () => {
    expect(TABLES_FILE).toMatch(/[/\\]matching[/\\]matcher-tables\.bin$/);
  });
});
