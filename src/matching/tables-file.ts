import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Automaton } from './automaton.js';

/**
 * The automaton's tables, compiled once by `npm run build` and read back by every later start: the
 * command line answers `match` in about the time of a bare Node start only if it does not rebuild a
 * DFA of thousands of states first. The file is a cache, never a source: it is keyed by a hash of the
 * literals it was compiled from and of the compiler's own code, and anything else (a catalogue edited
 * since, a compiler changed, a file cut short) makes the reader fall back to compiling.
 */

/** Where the build writes the tables and the matcher looks for them: beside this module. */
export const TABLES_FILE = fileURLToPath(new URL('./matcher-tables.bin', import.meta.url));

/** The compiler whose output the file holds (automaton.js when built, automaton.ts under tsx). */
const COMPILER_FILE = fileURLToPath(new URL(`./automaton${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

const MAGIC = 0x544d4d50; // "PMMT" in little-endian bytes: also refuses a file written with the other byte order
const KEY_BYTES = 32;
/** magic, then the key, then nine int32 fields, then the arrays; every offset a multiple of 4. */
const HEADER_BYTES = 4 + KEY_BYTES + 9 * 4;

let compilerSource: string | undefined;

/** The key of the tables compiled from these literals by the compiler as it is now. */
export function tablesKey(literals: readonly string[]): Buffer {
  compilerSource ??= readFileSync(COMPILER_FILE, 'utf8');
  // Normalised literals hold no line break, so the joined form says where each one ends.
  return createHash('sha256').update(compilerSource).update('\0').update(literals.join('\n')).digest();
}

const align4 = (n: number): number => (n + 3) & ~3;

/** The file's bytes for an automaton compiled from the literals that gave `key`. */
export function encodeTables(a: Automaton, key: Buffer): Buffer {
  const int32 = [a.delta, a.outStart, a.outPatterns];
  const bytes = [a.classOf, a.wordClass, a.endsWithWord];
  const size = HEADER_BYTES + int32.reduce((n, t) => n + t.byteLength, 0) + bytes.reduce((n, t) => n + align4(t.byteLength), 0);
  const out = Buffer.alloc(size);
  const fields = new Int32Array(out.buffer, out.byteOffset, size / 4);
  fields[0] = MAGIC;
  key.copy(out, 4);
  fields.set([a.backslashClass, a.classCount, a.lineStart, ...int32.map((t) => t.length), ...bytes.map((t) => t.length)], (4 + KEY_BYTES) / 4);
  let at = HEADER_BYTES;
  for (const t of [...int32, ...bytes]) {
    out.set(new Uint8Array(t.buffer, t.byteOffset, t.byteLength), at);
    at += align4(t.byteLength);
  }
  return out;
}

/**
 * The automaton in `file`, as views over its bytes (no copy), when it was compiled under `key`;
 * undefined when the key differs or the file is not one this code wrote.
 */
export function decodeTables(file: Uint8Array, key: Buffer): Automaton | undefined {
  // Int32 views need an offset that is a multiple of 4; a freshly read file of this size has one.
  const bytes = file.byteOffset % 4 === 0 ? file : new Uint8Array(file);
  if (bytes.byteLength < HEADER_BYTES) return undefined;
  const head = new Int32Array(bytes.buffer, bytes.byteOffset, HEADER_BYTES / 4);
  if (head[0] !== MAGIC || !key.equals(bytes.subarray(4, 4 + KEY_BYTES))) return undefined;
  const [backslashClass, classCount, lineStart, deltaLength, outStartLength, outPatternsLength, classOfLength, wordClassLength, endsWithWordLength] = head.subarray((4 + KEY_BYTES) / 4);
  let at = bytes.byteOffset + HEADER_BYTES;
  const end = bytes.byteOffset + bytes.byteLength;
  const take = <T extends Int32Array | Uint8Array>(Kind: { new (b: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number }, length: number | undefined): T | undefined => {
    if (length === undefined || length < 0 || at + length * Kind.BYTES_PER_ELEMENT > end) return undefined;
    const view = new Kind(bytes.buffer, at, length);
    at += align4(length * Kind.BYTES_PER_ELEMENT);
    return view;
  };
  const delta = take(Int32Array, deltaLength);
  const outStart = take(Int32Array, outStartLength);
  const outPatterns = take(Int32Array, outPatternsLength);
  const classOf = take(Uint8Array, classOfLength);
  const wordClass = take(Uint8Array, wordClassLength);
  const endsWithWord = take(Uint8Array, endsWithWordLength);
  if (!delta || !outStart || !outPatterns || !classOf || !wordClass || !endsWithWord || at !== bytes.byteOffset + bytes.byteLength) return undefined;
  return { classOf, backslashClass: backslashClass!, wordClass, classCount: classCount!, delta, lineStart: lineStart!, outStart, outPatterns, endsWithWord };
}

/** Writes the tables of `a`, compiled from `literals`, for later starts to read. */
export function writeTables(a: Automaton, literals: readonly string[], file = TABLES_FILE): void {
  writeFileSync(file, encodeTables(a, tablesKey(literals)));
}

/** The file's bytes, read at most once per process (null: there is none). */
const read = new Map<string, Uint8Array | null>();

/** The compiled tables for `literals` from `file` when it holds exactly those; else undefined. */
export function loadTables(literals: readonly string[], file = TABLES_FILE): Automaton | undefined {
  let bytes = read.get(file);
  if (bytes === undefined) {
    try {
      bytes = readFileSync(file);
    } catch {
      bytes = null;
    }
    read.set(file, bytes);
  }
  if (bytes === null) return undefined;
  try {
    return decodeTables(bytes, tablesKey(literals));
  } catch {
    // No compiler source to hash (a bundle, a partial copy): compiling is always right.
    return undefined;
  }
}
