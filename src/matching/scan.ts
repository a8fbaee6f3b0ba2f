import { endianness } from 'node:os';
import * as classes from './automaton.js';
import { Hits } from './hits.js';
import type { CompiledCatalogue } from './literals.js';

/**
 * The special classes, copied into this module's own constants: read through an import binding at every
 * character, they cost a property read each where a module loader turns exports into getters (tsx, which
 * runs the bot and the benchmarks, does), about a sixth of a 40 KB paste's time.
 */
const { CLASS_BACKSLASH, CLASS_ESCAPE, CLASS_INVISIBLE, CLASS_NEWLINE, FIRST_TABLE_CLASS } = classes;

/** Value of one hexadecimal digit, or -1. */
function hex(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

/**
 * The text's UTF-16 code units, as `charCodeAt` reads them, copied a chunk at a time into one buffer
 * that every scan reuses: reading a typed array in the loop is about twice as fast as `charCodeAt`
 * on a string (a paste is often a slice of a larger string, which `charCodeAt` unwraps at each call),
 * and the copy is a native memory copy. A Slack message (at most 40,000 characters) is one chunk.
 * The scan is synchronous, so one buffer serves every call.
 */
const CHUNK = 64 * 1024;
const chunkBytes = Buffer.alloc(CHUNK * 2);
const chunk = new Uint16Array(chunkBytes.buffer, chunkBytes.byteOffset, CHUNK);
const bigEndian = endianness() === 'BE';

/** Copies text[from, to) (at most CHUNK characters) to the start of the chunk buffer. */
function load(text: string, from: number, to: number): void {
  const written = chunkBytes.write(text.slice(from, to), 0, 'utf16le');
  if (bigEndian) chunkBytes.subarray(0, written).swap16();
}

/**
 * One pass over the text, one table lookup per character; the text is never copied. Case, word
 * boundaries and whitespace runs are handled by the automaton's tables; this loop handles line
 * breaks (each line starts afresh: signatures never span lines), ANSI colour sequences (skipped), and
 * JSON string escapes (\" \\ \/ \n \t \r \uXXXX read as the characters they stand for).
 */
export function scan(text: string, compiled: CompiledCatalogue): { hits: Hits; lines: number } {
  const { classOf, backslashClass, wordClass, classCount, delta, lineStart: start, outStart, outPatterns, endsWithWord } = compiled.automaton;
  const hits = new Hits(compiled);
  const codes = chunk;
  const n = text.length;
  let s = start;
  let line = 1;
  let lineStart = 0;
  // The chunk in the buffer: text[base, end).
  let base = 0;
  let end = 0;
  for (let i = 0; i < n; i++) {
    if (i >= end) {
      base = i;
      end = Math.min(n, i + CHUNK);
      load(text, base, end);
    }
    let k = classOf[codes[i - base]!]!;
    if (k < FIRST_TABLE_CLASS) {
      if (k === CLASS_NEWLINE) {
        line++;
        lineStart = i + 1;
        s = start;
        continue;
      }
      if (k === CLASS_ESCAPE) {
        i = skipAnsi(text, i);
        continue;
      }
      if (k === CLASS_INVISIBLE) continue;
      if (k === CLASS_BACKSLASH) {
        const c = unescape(text, i);
        if (c < 0) {
          k = backslashClass;
        } else {
          i += c >>> 16;
          k = (c & 0xffff) === 92 ? backslashClass : classOf[c & 0xffff]!;
          if (k < FIRST_TABLE_CLASS) continue; // an escaped control character: nothing to match
        }
      }
    }
    s = delta[s + k]!;
    if (s < 0) {
      s = ~s;
      const state = s / classCount;
      for (let o = outStart[state]!, last = outStart[state + 1]!; o < last; o++) {
        const p = outPatterns[o]!;
        // Whole words: a literal ending in a letter or digit must not run on into the next word.
        if (endsWithWord[p] === 1 && i + 1 < n && wordClass[classOf[i + 1 < end ? codes[i + 1 - base]! : text.charCodeAt(i + 1)]!] === 1) continue;
        hits.record(p, line, lineStart);
      }
    }
  }
  return { hits, lines: line };
}

/** The index of the last character of the ANSI CSI sequence starting at i (ESC [ params final). */
function skipAnsi(text: string, i: number): number {
  if (text.charCodeAt(i + 1) !== 91) return i;
  let j = i + 2;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d >= 0x40 && d <= 0x7e) return j;
    if (d === 10) return j - 1;
    j++;
  }
  return j;
}

/**
 * The JSON escape at i (a backslash): (extra characters consumed << 16) | the character it stands
 * for, or -1 when the backslash is just a backslash. \n \t \r stand for a space: inside a log
 * record they separate words, not lines.
 */
function unescape(text: string, i: number): number {
  const d = text.charCodeAt(i + 1);
  if (d === 110 || d === 116 || d === 114) return (1 << 16) | 32;
  if (d === 34 || d === 92 || d === 47) return (1 << 16) | d;
  if (d === 117) {
    const v = (hex(text.charCodeAt(i + 2)) << 12) | (hex(text.charCodeAt(i + 3)) << 8) | (hex(text.charCodeAt(i + 4)) << 4) | hex(text.charCodeAt(i + 5));
    if (v >= 0) return (5 << 16) | v;
  }
  return -1;
}
