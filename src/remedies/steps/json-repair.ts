/**
 * Where a JSON document breaks (line, column, an excerpt), and its repair when the repair is
 * unambiguous. JSON.parse's messages differ between engines and carry no line, hence this small
 * validating parser.
 */

/** Where and why a text is not valid JSON. */
export interface JsonBreak {
  readonly offset: number;
  /** 1-based, as editors count. */
  readonly line: number;
  readonly column: number;
  readonly message: string;
  /** The text around the break, with ⟨here⟩ at the break. */
  readonly excerpt: string;
}

class Broken extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** A key of an object and its colon, from `i`; where its value starts. */
function parseKey(t: string, i: number): number {
  i = ws(t, i);
  if (t[i] !== '"') throw new Broken(i, t[i] === undefined ? 'the document ends inside an object' : `expected a "key" but found ${JSON.stringify(t[i])}`);
  i = ws(t, parseString(t, i));
  if (t[i] !== ':') throw new Broken(i, t[i] === undefined ? 'the document ends after a key' : `expected ":" after a key but found ${JSON.stringify(t[i])}`);
  return i + 1;
}

/**
 * One value from `i`; where it ends. The open brackets are a stack of their own, not the call stack: a
 * last-applied-configuration is a string to the API server, which never limits how deep it nests.
 */
function parseValue(t: string, i: number): number {
  const open: ('}' | ']')[] = [];
  for (;;) {
    i = ws(t, i);
    const c = t[i];
    if (c === undefined) throw new Broken(i, 'the document ends where a value should be');
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i = ws(t, i + 1);
      if (t[i] !== close) {
        open.push(close);
        if (close === '}') i = parseKey(t, i);
        continue;
      }
      i += 1;
    } else if (c === '"') i = parseString(t, i);
    else {
      const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(t.slice(i, i + 64));
      if (!literal) throw new Broken(i, `unexpected ${JSON.stringify(c)} where a value should be`);
      i += literal[0].length;
    }
    // After a value: the brackets it closes, then a comma before the next value, or the end of the outermost.
    for (;;) {
      const close = open[open.length - 1];
      if (close === undefined) return i;
      i = ws(t, i);
      if (t[i] === ',') {
        const next = ws(t, i + 1);
        if (t[next] === close) throw new Broken(i, `a trailing comma before "${close}"`);
        i = close === '}' ? parseKey(t, next) : next;
        break;
      }
      if (t[i] !== close) throw new Broken(i, t[i] === undefined ? `the document ends before its closing "${close}"` : `expected "," or "${close}" but found ${JSON.stringify(t[i])}`);
      open.pop();
      i += 1;
    }
  }
}

function parseString(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    const c = t[j];
    if (c === '\\') j++;
    else if (c === '"') return j + 1;
    else if (c === '\n') throw new Broken(j, 'a line break inside a string');
  }
  throw new Broken(t.length, 'the document ends inside a string');
}

function ws(t: string, i: number): number {
  while (i < t.length && ' \t\n\r'.includes(t[i]!)) i++;
  return i;
}

function describe(t: string, offset: number, message: string): JsonBreak {
  const before = t.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  const excerpt = `${t.slice(Math.max(0, offset - 30), offset)}⟨here⟩${t.slice(offset, offset + 30)}`.replace(/\n/g, '⏎');
  return { offset, line, column, message, excerpt };
}

/** Where the text stops being valid JSON, or undefined when it is valid. */
export function findJsonBreak(text: string): JsonBreak | undefined {
  try {
    const end = ws(text, parseValue(text, 0));
    if (end < text.length) throw new Broken(end, `unexpected ${JSON.stringify(text[end])} after the end of the document`);
    return undefined;
  } catch (err) {
    if (err instanceof Broken) return describe(text, err.offset, err.message);
    throw err;
  }
}

/** Offsets of commas (outside strings) followed only by white space and a closing bracket. */
function trailingCommas(t: string): number[] {
  const out: number[] = [];
  let inString = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',' && (t[ws(t, i + 1)] === '}' || t[ws(t, i + 1)] === ']')) out.push(i);
  }
  return out;
}

/** The closers of the brackets still open at the end of the text, innermost first; undefined if a string is open. */
function unclosed(t: string): string | undefined {
  const stack: string[] = [];
  let inString = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') stack.pop();
  }
  return inString ? undefined : stack.reverse().join('');
}

/** A repair, with what it does in words. */
export interface JsonRepair {
  readonly text: string;
  readonly does: string;
}

/**
 * The repair of a broken document when exactly one reading of it is possible:
 * 1. a single trailing comma (`,` before `}` or `]`), removed;
 * 2. closing brackets missing at the very end (nothing else wrong), appended in order.
 * Anything else (a lost value, a missing quote, two problems) has more than one plausible fix: none.
 */
export function unambiguousRepair(text: string): JsonRepair | undefined {
  const broken = findJsonBreak(text);
  if (!broken) return undefined;
  const commas = trailingCommas(text);
  if (commas.length === 1) {
    const at = commas[0]!;
    const fixed = text.slice(0, at) + text.slice(at + 1);
    const where = describe(text, at, '');
    if (!findJsonBreak(fixed)) return { text: fixed, does: `remove the trailing comma at line ${where.line}, column ${where.column}` };
    return undefined;
  }
  if (commas.length > 1) return undefined;
  const body = text.trimEnd();
  const closers = unclosed(body);
  if (closers && broken.offset >= body.length) {
    const fixed = body + closers + text.slice(body.length);
    if (!findJsonBreak(fixed)) return { text: fixed, does: `append the missing ${closers.split('').map((c) => `"${c}"`).join(' ')} at the end` };
  }
  return undefined;
}
