import type { CatalogueEntry } from '../catalogue/model.js';
import { buildAutomaton, MAX_PATTERN_LENGTH, type Automaton } from './automaton.js';
import { loadTables } from './tables-file.js';
import { TABLE_MARKERS, type TableMarker } from './table-markers.js';
import { patterns } from './patterns.js';
import { buildBagIndex, type BagIndex } from './prose.js';

/** What a literal is to an entry (section order of Signatures), or a kubectl table marker. */
export const Kind = { Error: 0, Phrase: 1, Context: 2, Exclude: 3, Marker: 4, Downstream: 5 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** One use of a pattern: by an entry as one kind of signature, or by the table reader (entry -1). */
export interface Ref {
  readonly entry: number;
  readonly kind: Kind;
  /** The signature as written in the catalogue, for evidence. */
  readonly signature: string;
  /** The signature normalised, as the automaton matched it. */
  readonly literal: string;
  readonly marker?: TableMarker;
}

/** Everything the matcher derives from one entry set; built once and cached by array identity. */
export interface CompiledCatalogue {
  readonly entries: readonly CatalogueEntry[];
  readonly automaton: Automaton;
  /** Per pattern: the refs using it, refs[refStart[p] .. refStart[p + 1]). */
  readonly refStart: Int32Array;
  readonly refs: readonly Ref[];
  /** Per ref: its entry and its kind, as the scanner reads them for every hit. */
  readonly refEntry: Int32Array;
  readonly refKind: Uint8Array;
  /** The prose index, built on first use. */
  readonly bag: BagIndex;
}

/** Lower case, whitespace collapsed, trimmed: the form both literals and scanned text take. */
export function normaliseLiteral(s: string): string {
  return s.toLowerCase().split(patterns.whitespace).filter(Boolean).join(' ');
}

const cache = new WeakMap<readonly CatalogueEntry[], CompiledCatalogue>();

/** The compiled form of an entry set, compiled on first use. */
export function compile(entries: readonly CatalogueEntry[]): CompiledCatalogue {
  let compiled = cache.get(entries);
  if (!compiled) {
    compiled = build(entries);
    cache.set(entries, compiled);
  }
  return compiled;
}

/** The normalised literals of an entry set (the automaton's input) and, per literal, its uses. */
export function literalsOf(entries: readonly CatalogueEntry[]): { literals: string[]; refStart: Int32Array; refs: Ref[] } {
  const byPattern = new Map<string, Ref[]>();
  const add = (text: string, ref: Omit<Ref, 'literal'>): void => {
    const p = normaliseLiteral(text);
    if (p.length === 0 || p.length > MAX_PATTERN_LENGTH) return;
    const list = byPattern.get(p) ?? [];
    list.push({ ...ref, literal: p });
    byPattern.set(p, list);
  };
  entries.forEach((e, entry) => {
    const s = e.signatures;
    for (const t of s.errors) add(t, { entry, kind: Kind.Error, signature: t });
    for (const t of s.phrases) add(t, { entry, kind: Kind.Phrase, signature: t });
    for (const t of s.context ?? []) add(t, { entry, kind: Kind.Context, signature: t });
    for (const t of s.excludes ?? []) add(t, { entry, kind: Kind.Exclude, signature: t });
    for (const t of s.downstream ?? []) add(t, { entry, kind: Kind.Downstream, signature: t });
  });
  for (const [text, marker] of TABLE_MARKERS) add(text, { entry: -1, kind: Kind.Marker, signature: text, marker });
  const literals = [...byPattern.keys()];
  const refStart = new Int32Array(literals.length + 1);
  const refs: Ref[] = [];
  literals.forEach((p, i) => {
    refStart[i] = refs.length;
    refs.push(...byPattern.get(p)!);
  });
  refStart[literals.length] = refs.length;
  return { literals, refStart, refs };
}

function build(entries: readonly CatalogueEntry[]): CompiledCatalogue {
  const { literals, refStart, refs } = literalsOf(entries);
  // The tables `npm run build` compiled, when they were compiled from these very literals.
  const automaton = loadTables(literals) ?? buildAutomaton(literals);
  let bag: BagIndex | undefined;
  return {
    entries,
    automaton,
    refStart,
    refs,
    refEntry: Int32Array.from(refs, (r) => r.entry),
    refKind: Uint8Array.from(refs, (r) => r.kind),
    // Built when a paste first has a sentence to compare: most pastes are logs, and a command-line
    // start that never needs it should not pay for it.
    get bag() {
      return (bag ??= buildBagIndex(entries));
    },
  };
}
