/**
 * An Aho–Corasick automaton over normalised literals, compiled to a dense DFA on character classes so
 * that scanning costs one table lookup per input character whatever the number of literals.
 *
 * Three kinds of normalisation live in the tables rather than in the scanning loop:
 *  - case: A and a share a class, so the input is never lower-cased or copied;
 *  - whole words: a virtual boundary symbol follows every non-word character, in the literals and
 *    (folded into the transitions) in the text, so a literal that starts with a letter can only start
 *    after a non-word character or at the start of a line;
 *  - whitespace: a space after a space leaves the state unchanged, so runs of blanks read as one.
 */

/** Classes the scanning loop handles itself, before the table. */
export const CLASS_NEWLINE = 0;
export const CLASS_ESCAPE = 1;
export const CLASS_BACKSLASH = 2;
/** Characters that show nothing (zero-width, direction marks and overrides): skipped, as if absent. */
export const CLASS_INVISIBLE = 3;
/** The first class the table handles; classes below it are special. */
export const FIRST_TABLE_CLASS = 4;
const CLASS_SPACE = 4;
/** Non-word characters that appear in no literal. */
const CLASS_OTHER = 5;
/** Word characters (letters, digits, any non-ASCII) that appear in no literal. */
const CLASS_OTHER_WORD = 6;

/** A compiled automaton; read-only after construction. */
export interface Automaton {
  /** Character code (0..65535) → class. */
  readonly classOf: Uint8Array;
  /** The class a backslash has when it is not an escape. */
  readonly backslashClass: number;
  /** Class → 1 for word characters (for the check that a literal ends at the end of a word). */
  readonly wordClass: Uint8Array;
  readonly classCount: number;
  /**
   * Premultiplied transitions: next = delta[current + class], where states are stored as
   * state × classCount; a negative entry ~next marks a state where literals end.
   */
  readonly delta: Int32Array;
  /** The (premultiplied) state at the start of every line. */
  readonly lineStart: number;
  /** Literals ending at a state (its own and its suffixes'): outPatterns[outStart[s] .. outStart[s + 1]). */
  readonly outStart: Int32Array;
  readonly outPatterns: Int32Array;
  /** Per literal: 1 when it ends with a word character, so the next character must not be one. */
  readonly endsWithWord: Uint8Array;
}

/** The longest literal accepted (longer ones are dropped by the compiler). */
export const MAX_PATTERN_LENGTH = 250;

const SPACES = [9, 11, 12, 13, 32, 0xa0, 0x2028, 0x2029];
/**
 * Zero-width space, joiners and word joiner, byte-order mark, soft hyphen, direction marks, embeddings,
 * overrides and isolates: a paste copied from a web page carries them inside words ("up\u200bdate"), and
 * a hostile one uses them to hide an error from a reader of the text.
 */
const INVISIBLE = [0xad, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff];

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c >= 128;
}

function buildClasses(patterns: readonly string[]): { classOf: Uint8Array; wordClass: Uint8Array; classCount: number; backslashClass: number } {
  // Everything from 128 up is a word character: filled at once, not tested one by one.
  const classOf = new Uint8Array(65536).fill(CLASS_OTHER_WORD, 128);
  const wordClass = new Uint8Array(256);
  for (let c = 0; c < 128; c++) classOf[c] = isWordChar(c) ? CLASS_OTHER_WORD : CLASS_OTHER;
  for (const s of SPACES) classOf[s] = CLASS_SPACE;
  for (const c of INVISIBLE) classOf[c] = CLASS_INVISIBLE;
  wordClass[CLASS_OTHER_WORD] = 1;
  let next = CLASS_OTHER_WORD + 1;
  let backslashClass = CLASS_OTHER;
  const assigned = new Set<number>();
  for (const p of patterns) {
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i);
      if (c === 32 || assigned.has(c)) continue;
      if (next > 254) throw new Error('too many distinct characters in signatures');
      assigned.add(c);
      const k = next++;
      if (c === 92) backslashClass = k;
      else classOf[c] = k;
      if (c >= 97 && c <= 122) classOf[c - 32] = k;
      if (isWordChar(c)) wordClass[k] = 1;
    }
  }
  classOf[10] = CLASS_NEWLINE;
  classOf[27] = CLASS_ESCAPE;
  classOf[92] = CLASS_BACKSLASH;
  return { classOf, wordClass, classCount: next, backslashClass };
}

/**
 * Compiles the automaton. Literals must already be normalised (lower case, single spaces, trimmed)
 * and unique; literal i is reported as i.
 */
export function buildAutomaton(patterns: readonly string[]): Automaton {
  const { classOf, wordClass, classCount, backslashClass } = buildClasses(patterns);
  const B = classCount; // the virtual boundary symbol
  const symbols = classCount + 1;
  const classOfChar = (c: number): number => (c === 92 ? backslashClass : classOf[c]!);
  // The trie over literals with a boundary symbol after each non-word character. Edges are kept as
  // linked lists in typed arrays (a state's first child, a child's next sibling and its symbol), not
  // a Map per state: compiling runs at every command-line start, where allocation is what costs.
  let capacity = 1024;
  let firstChild = new Int32Array(capacity).fill(-1);
  let nextSibling = new Int32Array(capacity).fill(-1);
  let symbolOf = new Int32Array(capacity);
  let endsInSpace = new Uint8Array(capacity);
  const none: number[] = [];
  const own: number[][] = [none];
  let states = 1;
  const grow = (): void => {
    capacity *= 2;
    const wider = <T extends Int32Array | Uint8Array>(a: T, fill?: number): T => {
      const b = new (a.constructor as new (n: number) => T)(capacity);
      if (fill !== undefined) b.fill(fill);
      b.set(a);
      return b;
    };
    firstChild = wider(firstChild, -1);
    nextSibling = wider(nextSibling, -1);
    symbolOf = wider(symbolOf);
    endsInSpace = wider(endsInSpace);
  };
  const step = (s: number, k: number, space: boolean): number => {
    for (let t = firstChild[s]!; t !== -1; t = nextSibling[t]!) if (symbolOf[t] === k) return t;
    if (states === capacity) grow();
    const t = states++;
    symbolOf[t] = k;
    endsInSpace[t] = space ? 1 : 0;
    nextSibling[t] = firstChild[s]!;
    firstChild[s] = t;
    own.push(none);
    return t;
  };
  patterns.forEach((p, index) => {
    let s = isWordChar(p.charCodeAt(0)) ? step(0, B, false) : 0;
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i);
      s = step(s, c === 32 ? CLASS_SPACE : classOfChar(c), false);
      if (!isWordChar(c)) s = step(s, B, c === 32);
    }
    own[s] = [...own[s]!, index];
  });
  // Aho–Corasick over all symbols, breadth-first: a failure target is shallower, so complete already.
  const full = new Int32Array(states * symbols);
  const fail = new Int32Array(states);
  const outputs = own;
  const queue = new Int32Array(states);
  let tail = 0;
  for (let t = firstChild[0]!; t !== -1; t = nextSibling[t]!) {
    full[symbolOf[t]!] = t;
    queue[tail++] = t;
  }
  for (let head = 0; head < tail; head++) {
    const s = queue[head]!;
    const f = fail[s]!;
    if (outputs[f]!.length > 0) outputs[s] = [...outputs[s]!, ...outputs[f]!];
    // A state goes where its failure state goes, except along its own edges: the failure state's row
    // is copied whole (a memory copy), then the state's own edges written over it.
    full.copyWithin(s * symbols, f * symbols, f * symbols + symbols);
    for (let t = firstChild[s]!; t !== -1; t = nextSibling[t]!) {
      const k = symbolOf[t]!;
      fail[t] = full[f * symbols + k]!;
      full[s * symbols + k] = t;
      queue[tail++] = t;
    }
  }
  const delta = foldTable(full, states, classCount, wordClass, endsInSpace, outputs);
  const { outStart, outPatterns } = flattenOutputs(outputs);
  const endsWithWord = Uint8Array.from(patterns, (p) => (isWordChar(p.charCodeAt(p.length - 1)) ? 1 : 0));
  const lineStart = full[B]! * classCount;
  return { classOf, backslashClass, wordClass, classCount, delta, lineStart, outStart, outPatterns, endsWithWord };
}

/**
 * The scanning table: the boundary symbol and whitespace runs folded into the input transitions,
 * each entry premultiplied by the class count and negative where literals end. Its own function, as
 * are the other phases: V8 then optimises each small loop where it runs, rather than recompiling the
 * whole compiler at each hot loop, which cost tens of milliseconds at every command-line start.
 */
function foldTable(full: Int32Array, states: number, classCount: number, wordClass: Uint8Array, endsInSpace: Uint8Array, outputs: readonly (readonly number[])[]): Int32Array {
  const symbols = classCount + 1;
  const B = classCount;
  const entry = Int32Array.from(outputs, (o, t) => (o.length > 0 ? ~(t * classCount) : t * classCount));
  const afterBoundary = new Int32Array(states);
  for (let t = 0; t < states; t++) afterBoundary[t] = full[t * symbols + B]!;
  const delta = new Int32Array(states * classCount);
  for (let s = 0; s < states; s++) {
    const row = s * symbols;
    const out = s * classCount;
    for (let k = FIRST_TABLE_CLASS; k < classCount; k++) {
      const t = full[row + k]!;
      delta[out + k] = entry[wordClass[k] === 1 ? t : afterBoundary[t]!]!;
    }
    if (endsInSpace[s]) delta[out + CLASS_SPACE] = entry[s]!;
  }
  return delta;
}

/** The literals ending at each state, as one array and per-state offsets into it. */
function flattenOutputs(outputs: readonly (readonly number[])[]): { outStart: Int32Array; outPatterns: Int32Array } {
  const states = outputs.length;
  const outStart = new Int32Array(states + 1);
  let total = 0;
  for (let s = 0; s < states; s++) {
    outStart[s] = total;
    total += outputs[s]!.length;
  }
  outStart[states] = total;
  const outPatterns = new Int32Array(total);
  for (let s = 0; s < states; s++) if (outputs[s]!.length > 0) outPatterns.set(outputs[s]!, outStart[s]!);
  return { outStart, outPatterns };
}
