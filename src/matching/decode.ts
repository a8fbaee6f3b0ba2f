import { isUtf8 } from 'node:buffer';
import { looksBinary } from './binary.js';

/** How bytes were read as text. */
export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/**
 * Bytes read as text, and how: `note` is a sentence for the person whenever the bytes were not plain
 * UTF-8 (or UTF-16 with its byte-order mark), so that nothing is read differently or left out in silence.
 */
export interface Decoded {
  readonly text: string;
  readonly encoding: Encoding;
  /** Bytes that could not be read, each shown as U+FFFD. */
  readonly unreadable: number;
  readonly note?: string;
}

/** How much of the start is sampled to tell UTF-16 without a byte-order mark. */
const SAMPLE = 8192;

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/** UTF-16 bytes (big-endian when `be`) as text; an odd last byte is counted as unreadable. */
function utf16(bytes: Uint8Array, be: boolean): { text: string; unreadable: number } {
  const even = Buffer.from(bytes.subarray(0, bytes.length & ~1));
  const text = (be ? even.swap16() : even).toString('utf16le');
  const odd = bytes.length & 1;
  return { text: odd ? `${text}\ufffd` : text, unreadable: odd };
}

/**
 * The byte order of UTF-16 text that has no byte-order mark (what `iconv -t UTF-16LE` and some
 * Windows tools write): mostly-ASCII text has a NUL in every other byte and almost none in the others.
 */
function utf16Order(bytes: Uint8Array): 'le' | 'be' | undefined {
  const pairs = Math.min(bytes.length, SAMPLE) >> 1;
  if (pairs < 2) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const few = pairs * 0.05;
  if (oddNul >= pairs * 0.5 && evenNul <= few) return 'le';
  if (evenNul >= pairs * 0.5 && oddNul <= few) return 'be';
  return undefined;
}

/** Counts, in bytes that are not valid UTF-8, the bytes that are not part of a valid sequence and the valid sequences of two bytes or more. */
function utf8Check(bytes: Uint8Array): { invalid: number; multibyte: number } {
  let invalid = 0;
  let multibyte = 0;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let ok = len > 0 && i + len <= bytes.length;
    for (let k = 1; ok && k < len; k++) ok = (bytes[i + k]! & 0xc0) === 0x80;
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
    if (ok && len === 3) ok = !(b === 0xe0 && bytes[i + 1]! < 0xa0) && !(b === 0xed && bytes[i + 1]! >= 0xa0);
    if (ok && len === 4) ok = !(b === 0xf0 && bytes[i + 1]! < 0x90) && !(b === 0xf4 && bytes[i + 1]! >= 0x90);
    if (ok) {
      multibyte++;
      i += len;
    } else {
      invalid++;
      i++;
    }
  }
  return { invalid, multibyte };
}

const windows1252 = new TextDecoder('windows-1252');

/**
 * The text of the bytes, as a person meant it:
 * - UTF-16 with its byte-order mark (what Windows PowerShell 5's `>` writes), or without one when every
 *   other byte is NUL, said in the note;
 * - UTF-8, its byte-order mark dropped;
 * - not UTF-8 and with (almost) no UTF-8 in it (ASCII and single high bytes, as "für" in Latin-1 is):
 *   read as Windows-1252, which Latin-1 text also is, and said;
 * - UTF-8 with a few bytes that are not: read, those bytes U+FFFD (which evidence leaves out) and counted in the note.
 * Bytes that are none of these are left to the binary check of the caller.
 */
export function decodeText(bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return fromUtf16(bytes.subarray(2), 'le', true);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return fromUtf16(bytes.subarray(2), 'be', true);
  const order = utf16Order(bytes);
  if (order) {
    const read = fromUtf16(bytes, order, false);
    // A binary file whose bytes happen to alternate with NULs is still binary: its caller refuses it.
    if (!looksBinary(read.text)) return read;
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = buffer.subarray(start);
  // Most input is UTF-8: Node's own check is native and fast on a 10 MB log; only the rest is counted byte by byte.
  if (isUtf8(body)) return { text: body.toString('utf8'), encoding: 'utf-8', unreadable: 0 };
  const { invalid, multibyte } = utf8Check(body);
  if (invalid === 0) return { text: body.toString('utf8'), encoding: 'utf-8', unreadable: 0 };
  // Latin-1 text has single high bytes and no UTF-8 (or a rare pair that happens to be): a fifth of the
  // non-ASCII read as UTF-8 at most. More is UTF-8 with some bytes broken, which stays UTF-8.
  if (invalid > multibyte * 4) {
    return { text: windows1252.decode(body), encoding: 'windows-1252', unreadable: 0, note: 'read as Windows-1252 (Latin-1): the input is not UTF-8. To convert it: iconv -f WINDOWS-1252 -t UTF-8' };
  }
  return { text: body.toString('utf8'), encoding: 'utf-8', unreadable: invalid, note: `${plural(invalid, 'byte')} of the input ${invalid === 1 ? 'is' : 'are'} not UTF-8 and could not be read; ${invalid === 1 ? 'it was' : 'they were'} left out` };
}

function fromUtf16(bytes: Uint8Array, order: 'le' | 'be', bom: boolean): Decoded {
  const { text, unreadable } = utf16(bytes, order === 'be');
  const name = order === 'le' ? 'UTF-16LE' : 'UTF-16BE';
  const notes = [
    ...(bom ? [] : [`read as ${name} (it has no byte-order mark). To convert it: iconv -f ${name} -t UTF-8`]),
    ...(unreadable ? [`its last byte was left over from ${name} and could not be read`] : []),
  ];
  return { text, encoding: order === 'le' ? 'utf-16le' : 'utf-16be', unreadable, ...(notes.length ? { note: notes.join('; ') } : {}) };
}
