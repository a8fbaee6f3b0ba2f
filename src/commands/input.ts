import { readFile, stat } from 'node:fs/promises';

/** What a CLI command read: the text, or why it would not read it. */
export type InputText = { ok: true; text: string } | { ok: false; message: string };

/**
 * Reads a file, or standard input when there is none (or `-`), refusing more than `maxBytes` with a
 * sentence that ends in `limit` (e.g. "match reads up to 10 MB") rather than reading it all first.
 */
export async function readInput(file: string | undefined, stdin: NodeJS.ReadableStream, maxBytes: number, limit: string): Promise<InputText> {
  if (file && file !== '-') {
    const size = await stat(file).then(
      (s) => s.size,
      () => undefined,
    );
    if (size === undefined) return { ok: false, message: `cannot read ${file}: no such file` };
    if (size > maxBytes) return { ok: false, message: `${file} is ${(size / 1048576).toFixed(1)} MB; ${limit}` };
    return { ok: true, text: await readFile(file, 'utf8') };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += b.length;
    if (total > maxBytes) return { ok: false, message: `standard input is larger than ${(maxBytes / 1048576).toFixed(0)} MB; ${limit}` };
    chunks.push(b);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
