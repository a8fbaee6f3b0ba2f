/**
 * Helm's `--set` syntax (its strvals parser), so pasted flags mean here what they mean to helm:
 * `a.b=c,d=e` sets two keys; `\.` and `\,` escape; `{a,b}` is a list; `name[0]=x` indexes a list;
 * `--set` types `true`, `false`, `null` and integers, `--set-string` keeps everything a string;
 * `--set-json` takes JSON; `--set-literal` takes the rest verbatim; `--set-file` reads a file we cannot see.
 */

/** The --set family of flags. */
export type SetKind = 'set' | 'set-string' | 'set-json' | 'set-literal' | 'set-file';

/** One key=value of a --set flag. */
export interface Assignment {
  readonly path: string[];
  readonly value: unknown;
  readonly kind: SetKind;
}

/** Helm's typedVal: what `--set` makes of a bare value. */
function typed(text: string, kind: SetKind): unknown {
  if (kind !== 'set') return text;
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  if (text === '0') return 0;
  if (/^-?[1-9][0-9]{0,17}$/.test(text)) return Number(text);
  return text;
}

/**
 * Reads until one of `stops` (unescaped), undoing backslash escapes. Text is taken in runs between
 * escapes, never a character at a time, so a long key costs time in proportion to its length.
 */
function readUntil(s: string, at: number, stops: string): { text: string; end: number; stop: string | undefined } {
  const parts: string[] = [];
  let start = at;
  let i = at;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      parts.push(s.slice(start, i), s[i + 1]!);
      i += 2;
      start = i;
      continue;
    }
    if (stops.includes(c)) {
      parts.push(s.slice(start, i));
      return { text: parts.join(''), end: i, stop: c };
    }
    i++;
  }
  parts.push(s.slice(start, i));
  return { text: parts.join(''), end: i, stop: undefined };
}

/** The end of a JSON value starting at `at` (before the next top-level comma). */
function jsonEnd(s: string, at: number): number {
  let depth = 0;
  let inString = false;
  for (let i = at; i < s.length; i++) {
    const c = s[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0) return i;
  }
  return s.length;
}

/** A key as segments; `name[2]` becomes `name`, `2`. One pass over the key, by index. */
function keyPath(key: string): string[] | undefined {
  const path: string[] = [];
  let i = 0;
  while (i < key.length) {
    const { text, end, stop } = readUntil(key, i, '.[');
    if (text === '' && stop !== '[') return undefined;
    if (text !== '') path.push(text);
    if (stop === '[') {
      const close = key.indexOf(']', end);
      const index = key.slice(end + 1, close);
      if (close === -1 || !/^[0-9]{1,4}$/.test(index)) return undefined;
      path.push(index);
      i = key[close + 1] === '.' ? close + 2 : close + 1;
      continue;
    }
    i = stop === '.' ? end + 1 : key.length;
  }
  return path.length > 0 ? path : undefined;
}

/** The key=value pairs of one --set argument, or what is wrong with it. */
export function parseSetArgument(arg: string, kind: SetKind): { ok: true; assignments: Assignment[] } | { ok: false; message: string } {
  const assignments: Assignment[] = [];
  let i = 0;
  while (i < arg.length) {
    // Keys keep their escapes here, so that keyPath can tell `\.` from `.`.
    const keyStart = i;
    while (i < arg.length && arg[i] !== '=' && arg[i] !== ',') i += arg[i] === '\\' && i + 1 < arg.length ? 2 : 1;
    const rawKey = arg.slice(keyStart, i);
    if (arg[i] !== '=') return { ok: false, message: `"${rawKey.slice(0, 80)}" has no "=value" (helm: key has no value)` };
    const path = keyPath(rawKey);
    if (!path) return { ok: false, message: `"${rawKey.slice(0, 80)}" is not a key helm can read` };
    i++;
    if (kind === 'set-literal' || kind === 'set-file') {
      // --set-literal takes everything after the first "="; --set-file splits on commas like --set.
      const end = kind === 'set-literal' ? arg.length : readUntil(arg, i, ',').end;
      assignments.push({ path, value: kind === 'set-file' ? readUntil(arg, i, ',').text : arg.slice(i), kind });
      i = end + 1;
      continue;
    }
    if (kind === 'set-json') {
      const end = jsonEnd(arg, i);
      try {
        assignments.push({ path, value: JSON.parse(arg.slice(i, end)) as unknown, kind });
      } catch {
        return { ok: false, message: `the value of ${rawKey.slice(0, 80)} is not JSON` };
      }
      i = end + 1;
      continue;
    }
    if (arg[i] === '{') {
      const list: unknown[] = [];
      i++;
      for (;;) {
        const item = readUntil(arg, i, ',}');
        if (item.stop === undefined) return { ok: false, message: `the list of ${rawKey.slice(0, 80)} has no closing "}"` };
        if (!(item.stop === '}' && item.text === '' && list.length === 0)) list.push(typed(item.text, kind));
        i = item.end + 1;
        if (item.stop === '}') break;
      }
      assignments.push({ path, value: list, kind });
      if (arg[i] === ',') i++;
      else if (i < arg.length) return { ok: false, message: `unexpected text after the list of ${rawKey.slice(0, 80)}` };
      continue;
    }
    const value = readUntil(arg, i, ',');
    assignments.push({ path, value: typed(value.text, kind), kind });
    i = value.end + 1;
  }
  return { ok: true, assignments };
}

/** A key's own value in a values tree: `__proto__` or `constructor` is a key like any other there, never what objects inherit. */
export function ownValue(tree: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(tree, key) ? tree[key] : undefined;
}

/**
 * Sets a key of a values tree as its own property, whatever its name: `tree[key] = value` with the key `__proto__`
 * (helm's plain key, typed by anyone in `--set __proto__.x=1`) would reach Object.prototype of the whole process.
 */
export function setOwn(tree: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(tree, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Sets (or, for null, removes, as helm does) the value at a path of a values tree. */
export function setPath(tree: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at: Record<string, unknown> = tree;
  for (const s of path.slice(0, -1)) {
    const next = ownValue(at, s);
    if (typeof next !== 'object' || next === null || Array.isArray(next)) setOwn(at, s, {});
    at = ownValue(at, s) as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === null) delete at[last];
  else setOwn(at, last, value);
}
