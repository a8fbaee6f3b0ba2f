/** Redaction of structures: a Kubernetes Secret's data, block values, key files and private key blocks. */
import { MARK, redactionPatterns } from './patterns.js';
import { errorAfter, harmless, reference } from './values.js';

/** Lines read up and down from a Secret's `data:` for the `kind:` of the object it is in. */
export const KIND_LOOK = 200;

/** Where a line's key starts: past its indent and a list item's dash (`  - data:` → 4). */
export function keyIndent(line: string): number {
  let n = 0;
  while (n < line.length && (line[n] === ' ' || (line[n] === '-' && line[n + 1] === ' '))) n++;
  return n;
}

/**
 * Whether the value nextLineSecret found on the line after its key (`key` ends with that line's indent) is
 * deeper than the key, as YAML reads a value there: a line at the key's own indent is its sibling (an error
 * line after an empty `  password:`), not its value.
 */
export function deeper(text: string, at: number, key: string): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const valueIndent = key.length - key.lastIndexOf('\n') - 1;
  return valueIndent > keyIndent(text.slice(lineStart, lineStart + 200));
}

/** Whether a YAML line is `kind: Secret`, quoted or not. */
export function secretKind(line: string): boolean {
  const key = line.slice(keyIndent(line)).replaceAll('"', '').replaceAll("'", '');
  return key.startsWith('kind:') && key.slice(5).trim() === 'Secret';
}

/**
 * Whether the YAML object whose `data:` is at line `at` (its keys at `indent`) is a Secret: its `kind:` may
 * be above or below it (kubectl writes data before kind), in a list's item or a document of its own.
 */
export function inSecretObject(lines: string[], at: number, indent: number): boolean {
  for (const step of [-1, 1]) {
    for (let j = at + step, n = 0; j >= 0 && j < lines.length && n < KIND_LOOK; j += step, n++) {
      const line = lines[j]!;
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      if (line.startsWith('---')) break;
      const k = keyIndent(line);
      if (k < indent) break;
      // A list item's first key starts the object: above, it is the object's own; below, the next object's.
      const item = k === indent && line.slice(0, k).includes('-');
      if (item && step > 0) break;
      if (k === indent && secretKind(line)) return true;
      if (item) break;
    }
  }
  return false;
}

/** A data entry with its value hidden: `password: cGFz` → `password: [redacted]`, quotes kept; a block's marker stays. */
export function hiddenEntry(line: string, indent: number): string {
  const colon = line.indexOf(':', indent);
  if (colon < 0) return `${line.slice(0, indent)}${MARK}`;
  const value = line.slice(colon + 1).trim();
  if (value === '' || value.startsWith('|') || value.startsWith('>') || value.startsWith('#') || harmless(value)) return line;
  const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
  const space = line.slice(colon + 1).length - line.slice(colon + 1).trimStart().length;
  // A bare value's comment is no part of it (` # ERROR: …` after it stays).
  const comment = quote ? -1 : line.indexOf(' #', colon + 1 + space);
  return `${line.slice(0, colon + 1 + space)}${quote}${MARK}${quote}${comment < 0 ? '' : line.slice(comment)}`;
}

/**
 * The values under a Kubernetes Secret's `data:` and `stringData:`, every key's — a Secret holds nothing else;
 * a ConfigMap's data stays. `inSecret` says the text is part of a Secret whose kind is not in it (an evidence
 * line's context).
 */
export function secretData(text: string, inSecret: boolean): string {
  if (!text.includes('ata') || (!inSecret && !text.includes('Secret'))) return text;
  let out = text;
  // `data:` as a key of its own, not the end of `metadata:`.
  if (out.includes(' data:') || out.includes('\ndata:') || out.startsWith('data:') || out.includes('stringData:')) out = secretDataYaml(out, inSecret);
  if (out.includes('ata"') && (inSecret || redactionPatterns.jsonSecretKind.test(out))) {
    out = out.replace(redactionPatterns.jsonSecretData, (_m, open: string, body: string) => `${open}${body.replace(redactionPatterns.jsonStringValue, (v, key: string, value: string) => (harmless(value) ? v : `${key}${MARK}"`))}`);
  }
  return out;
}

/** Whether the first line after line `at` that is not blank is deeper than `indent`: an entry of the object at `at`. */
export function hasEntries(lines: string[], at: number, indent: number): boolean {
  for (let j = at + 1; j < lines.length; j++) if (lines[j]!.trim() !== '') return keyIndent(lines[j]!) > indent;
  return false;
}

export function secretDataYaml(text: string, inSecret: boolean): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const indent = keyIndent(lines[i]!);
    const key = lines[i]!.slice(indent).trimEnd();
    // A `data:` with no entries under it hides nothing: its object's kind is not looked for (a paste of `data:`
    // lines would have it looked for up and down from each).
    if ((key !== 'data:' && key !== 'stringData:') || !hasEntries(lines, i, indent) || !(inSecret || inSecretObject(lines, i, indent))) continue;
    // The entries: deeper than `data:`, each at the first one's indent; deeper still, a block value's lines.
    let entry = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() === '') continue;
      const k = keyIndent(line);
      if (k <= indent) break;
      if (entry < 0) entry = k;
      lines[j] = k === entry ? hiddenEntry(line, k) : k > entry ? `${line.slice(0, k)}${MARK}` : line;
      i = j;
    }
  }
  return lines.join('\n');
}

/**
 * The lines of a YAML block scalar under a secret's key (`secret: |`): all of them, not only the first that
 * nextLineSecret reads — every line deeper than the key is the value. A block whose first line is harmless or
 * an error's sentence is no secret's. Split into lines only when such a key is in the text.
 */
export function secretBlocks(text: string): string {
  if ((!text.includes('|') && !text.includes('>')) || !redactionPatterns.secretBlockKey.test(text)) return text;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const key = redactionPatterns.secretBlockKey.exec(lines[i]!);
    if (!key || reference(key[1]!)) continue;
    const indent = keyIndent(lines[i]!);
    let end = i + 1;
    while (end < lines.length && (lines[end]!.trim() === '' || leadingSpace(lines[end]!) > indent)) end++;
    const first = lines.slice(i + 1, end).find((l) => l.trim() !== '');
    if (first === undefined || harmless(first.trim())) continue;
    for (let j = i + 1; j < end; j++) {
      const line = lines[j]!;
      const error = errorAfter(line.trimStart());
      if (line.trim() !== '') lines[j] = `${line.slice(0, leadingSpace(line))}${MARK}${error || (line.endsWith('\r') ? '\r' : '')}`;
    }
    i = end - 1;
  }
  return lines.join('\n');
}

/** The spaces and tabs a line starts with. */
export function leadingSpace(line: string): number {
  return pastSpaces(line, 0);
}

/** The values of keys named for a registry's or a TLS key's file, read only when such a name is in the text. */
export function secretFiles(text: string): string {
  if (!text.includes('.docker') && !text.includes('tls.key') && !text.includes('ssh-privatekey')) return text;
  return text.replace(redactionPatterns.secretFileKey, (_m, key: string) => `${key}${MARK}`);
}

/** Header lines a key block may have before its base64 (an encrypted PEM's, PGP's armour), lower case. */
export const KEY_HEADERS = new Set(['proc-type:', 'dek-info:', 'comment:', 'version:', 'hash:', 'charset:']);
/** Shorter than this, a word on a line with others is a sentence's, not a piece of a key's base64 (64 characters a line). */
export const KEY_CHUNK = 16;

/** How many characters of a break between a key block's words start at `at`: whitespace, or a JSON string's escaped line break (`\\n`). */
export function keyBreak(text: string, at: number): number {
  const c = text[at];
  if (c === ' ' || c === '\t' || c === '\n' || c === '\r') return 1;
  return c === '\\' && (text[at + 1] === 'n' || text[at + 1] === 'r') ? 2 : 0;
}

/** Whether every character of a word is base64's (standard or URL-safe, with padding). */
export function base64Word(word: string): boolean {
  return /^[A-Za-z0-9+/=_-]+$/.test(word);
}

/**
 * Private key blocks, from the start line through the body to the end line (`-----BEGIN … PRIVATE KEY-----` …
 * `-----END …-----`), or, for a block cut before its end, through the body alone. The body is what a key's is:
 * base64 words (each alone on its line, or long ones on a line with others, as a key pasted on one line has
 * them) and the header lines an encrypted or PGP key has. It ends at the first word that is not one: the line
 * after the start that says `ERROR: database … is being accessed` is the error's, and stays. Each character is
 * read once.
 */
export function privateKeys(text: string): string {
  return puttyKeys(/private key/i.test(text) ? keyBlocks(text, redactionPatterns.privateKeyBegin, (whole) => `-----BEGIN PRIVATE KEY----- ${MARK}${whole ? ' -----END PRIVATE KEY-----' : ''}`) : text);
}

/** A PuTTY key file's private lines (`Private-Lines: 14` and the base64 under it); its other lines are no secret. */
function puttyKeys(text: string): string {
  return /private-lines/i.test(text) ? keyBlocks(text, redactionPatterns.puttyPrivateLines, () => `Private-Lines: ${MARK}`) : text;
}

/** Each block that starts where `begin` matches, with a body (keyBody), replaced by `shown(whole)`. */
function keyBlocks(text: string, begin: RegExp, shownAs: (whole: boolean) => string): string {
  const parts: string[] = [];
  let shown = 0;
  begin.lastIndex = 0;
  for (let b = begin.exec(text); b; b = begin.exec(text)) {
    const block = keyBody(text, b.index + b[0].length);
    if (block.end === b.index + b[0].length) continue;
    parts.push(text.slice(shown, b.index), shownAs(block.whole));
    shown = begin.lastIndex = block.end;
  }
  return shown === 0 ? text : parts.join('') + text.slice(shown);
}

/** Where a key block's body that starts at `from` ends (after its end line, when `whole`), read word by word. */
export function keyBody(text: string, from: number): { end: number; whole: boolean } {
  let end = from;
  let at = from;
  // Whether the next word starts its line: a body line's base64 is alone on it.
  let lineStart = false;
  for (;;) {
    for (let gap = keyBreak(text, at); gap > 0; gap = keyBreak(text, at) || (lineStart ? quoteMark(text, at) : 0)) {
      if (gap === 2 || text[at] === '\n') lineStart = true;
      at += gap;
    }
    if (at >= text.length) break;
    if (endLineAt(text, at)) return { end: redactionPatterns.privateKeyEnd.lastIndex, whole: true };
    let stop = wordEnd(text, at);
    let word = text.slice(at, stop);
    // A fence, a quote or a tag glued to the block's last line (```…AAAA```, a JSON string's `…AAAA"`) closes it.
    const closed = closedAt(word);
    if (closed > 0) {
      word = word.slice(0, closed);
      stop = at + closed;
    }
    if (KEY_HEADERS.has(word.toLowerCase())) {
      // Its value: the rest of its line, or on a one-line key its next word.
      stop = lineStart ? lineEnd(text, stop) : wordEnd(text, pastSpaces(text, stop));
    } else {
      const next = pastSpaces(text, stop);
      const alone = lineStart && (closed > 0 || next >= text.length || keyBreak(text, next) > 0);
      if (!base64Word(word) || (!alone && word.length < KEY_CHUNK && !word.endsWith('=') && !keyLike(word) && !endLineAt(text, next))) break;
    }
    lineStart = false;
    at = end = stop;
    if (closed > 0) break;
  }
  return { end, whole: false };
}

/** What closes a pasted block right after its last character: a code fence, a quote, a tag, a bracket, an escape. */
const CLOSERS = '`"\'<)]}\\';

/** Where a word that is base64 up to a closer ends its base64 (0: it is not one). */
function closedAt(word: string): number {
  let i = 0;
  while (i < word.length && base64Word(word[i]!)) i++;
  return i > 0 && i < word.length && CLOSERS.includes(word[i]!) ? i : 0;
}

/**
 * Whether a short word is random rather than a sentence's: a digit, a `+` or `/`, or a capital after a small letter
 * (`b3BlbnNzaC1r`, `MIIEvQ`). A one-line key cut short shows only such a word; "Failed to pull" stays.
 */
function keyLike(word: string): boolean {
  return /[0-9+/]|[a-z][A-Z]/.test(word);
}

/** How many characters of a quote's mark (`> `, Slack's `&gt; `) start a quoted line at `at`: a key pasted in a quote. */
function quoteMark(text: string, at: number): number {
  const mark = text.startsWith('&gt;', at) ? 4 : text[at] === '>' ? 1 : 0;
  const after = text[at + mark];
  return mark > 0 && (after === ' ' || after === '\t') ? mark + 1 : 0;
}

/** Whether a key block's end line starts at `at` (privateKeyEnd's lastIndex is then where it ends). */
export function endLineAt(text: string, at: number): boolean {
  const endLine = redactionPatterns.privateKeyEnd;
  endLine.lastIndex = at;
  return text[at] === '-' && endLine.test(text);
}

/** Where the word of a key block that starts at `at` ends: at a break, or where an end line starts right after it. */
export function wordEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && keyBreak(text, i) === 0 && !(i > at && text[i] === '-' && text[i - 1] !== '-' && endLineAt(text, i))) i++;
  return i;
}

/** Where the line that `at` is in ends (a line break, or a JSON string's escaped one). */
export function lineEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r' && keyBreak(text, i) !== 2) i++;
  return i;
}

/** Past the spaces and tabs at `at`. */
export function pastSpaces(text: string, at: number): number {
  let i = at;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}
