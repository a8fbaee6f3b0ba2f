import { open } from 'node:fs/promises';
import { fileReason } from '../errors.js';
import { looksBinary } from '../matching/binary.js';
import { decodeText } from '../matching/decode.js';
import { sizeOver } from '../views/size.js';
import { visible } from '../views/visible.js';

/**
 * What a CLI command read: the text, with a note when it was not read as plain UTF-8 (UTF-16 without a
 * byte-order mark, Windows-1252, bytes left out), or why it would not read it (one line, exit 2).
 */
export type InputText = { ok: true; text: string; note?: string } | { ok: false; message: string };

const mb = (bytes: number, digits: number): string => (bytes / 1048576).toFixed(digits);

/** Reads a stream up to `maxBytes`; undefined when it holds more, so that a huge input is never held whole. */
async function readCapped(source: AsyncIterable<unknown>, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += b.length;
    if (total > maxBytes) return undefined;
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** A file's bytes, or why it cannot be read; pipes and devices (`<(…)`, /dev/stdin) are read like files. */
async function readFileCapped(file: string, maxBytes: number, limit: string): Promise<{ ok: true; bytes: Buffer } | { ok: false; message: string }> {
  // A file's name may hold control characters or a right-to-left mark (`match logs/*`): named escaped, never raw.
  const named = visible(file);
  const cannot = (err: unknown) => ({ ok: false as const, message: `cannot read ${named}: ${fileReason(err) ?? visible((err as Error).message.split('\n')[0] ?? '')}` });
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    return cannot(err);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { ok: false, message: `cannot read ${named}: it is a directory` };
    if (info.size > maxBytes) return { ok: false, message: `${named} is ${sizeOver(info.size, maxBytes)}; ${limit}` };
    const bytes = await readCapped(handle.createReadStream({ autoClose: false }), maxBytes);
    return bytes ? { ok: true, bytes } : { ok: false, message: `${named} is larger than ${mb(maxBytes, 0)} MB; ${limit}` };
  } catch (err) {
    return cannot(err);
  } finally {
    await handle.close();
  }
}

/**
 * Reads a file, or standard input when there is none (or `-`), refusing more than `maxBytes` with a
 * sentence that ends in `limit` (e.g. "match reads up to 10 MB") rather than reading it all first.
 * The same rules hold for every command that reads input: a file that cannot be read, empty input
 * (nothing but blanks) and binary input are refused with one line, for the command to exit 2. Text
 * that is not UTF-8 is read as decode.ts says, with its note for the command to print.
 */
export async function readInput(file: string | undefined, stdin: NodeJS.ReadableStream, maxBytes: number, limit: string): Promise<InputText> {
  let bytes: Buffer;
  if (file && file !== '-') {
    const read = await readFileCapped(file, maxBytes, limit);
    if (!read.ok) return read;
    bytes = read.bytes;
  } else {
    const read = await readCapped(stdin, maxBytes);
    if (!read) return { ok: false, message: `standard input is larger than ${mb(maxBytes, 0)} MB; ${limit}` };
    bytes = read;
  }
  const { text, note } = decodeText(bytes);
  if (text.trim() === '') return { ok: false, message: 'nothing to read: the input is empty' };
  if (looksBinary(text)) return { ok: false, message: 'binary input: not text' };
  return { ok: true, text, ...(note ? { note } : {}) };
}
