/**
 * Entry 11's edit of a PromQL query: remove the matcher `image!=""` (or `image!=''`) from every label
 * matcher list, with its separating comma, leaving every other matcher exactly as written.
 *
 * One left-to-right scan: string literals ("…", '…' with backslash escapes, `…` raw), comments (# to
 * the end of the line) and Grafana variables (${…}) are copied untouched, so a matcher-like text inside
 * them is never edited; each `{…}` is split at its top-level commas and only a whole matcher equal to
 * `image != ""` (spaces allowed around the operator) is dropped. Every character is visited at most
 * twice, so the edit is linear in the query's length whatever the query holds.
 */

/** The query after the edit, and how many matchers were removed. */
export interface FilterRemoval {
  readonly expr: string;
  readonly removed: number;
}

/** A whole matcher `image!=""`: anchored on both ends and without nested repetition, so it runs in linear time. */
const imageNotEmpty = /^\s*image\s*!=\s*(?:""|''|``)\s*$/;
const identChar = /[A-Za-z0-9_:]/;

/** Index just past the string literal that starts at `start` (or the end, if it is never closed). */
function endOfString(s: string, start: number): number {
  const quote = s[start];
  for (let i = start + 1; i < s.length; i++) {
    if (quote !== '`' && s[i] === '\\') i++;
    else if (s[i] === quote) return i + 1;
  }
  return s.length;
}

/** Index of the `}` closing the list opened at `open`, skipping strings; -1 when there is none. */
function closingBrace(s: string, open: number): number {
  for (let i = open + 1; i < s.length; ) {
    const c = s[i];
    if (c === '"' || c === "'" || c === '`') i = endOfString(s, i);
    else if (c === '}') return i;
    else i++;
  }
  return -1;
}

/** The matchers of a list body, split at commas that are not inside strings (whitespace kept). */
function splitMatchers(body: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < body.length; ) {
    const c = body[i];
    if (c === '"' || c === "'" || c === '`') i = endOfString(body, i);
    else if (c === ',') {
      parts.push(body.slice(from, i));
      from = ++i;
    } else i++;
  }
  parts.push(body.slice(from));
  return parts;
}

const leadingSpace = (s: string) => s.slice(0, s.length - s.trimStart().length);

/** The list body without its `image!=""` matchers; the first kept matcher takes the first one's leading space. */
function filterList(body: string): { body: string; removed: number } {
  const parts = splitMatchers(body);
  const kept = parts.filter((p) => !imageNotEmpty.test(p));
  const removed = parts.length - kept.length;
  if (removed === 0) return { body, removed: 0 };
  if (kept.length > 0 && kept[0] !== parts[0]) kept[0] = leadingSpace(parts[0] ?? '') + kept[0]!.trimStart();
  // A list that held only the filter and a trailing comma leaves one empty part: nothing is left.
  const rest = kept.length === 1 && kept[0]!.trim() === '' ? [] : kept;
  return { body: rest.join(','), removed };
}

/** Removes the `image!=""` matchers from a PromQL query; see the module comment. */
export function removeImageFilter(expr: string): FilterRemoval {
  let out = '';
  let removed = 0;
  for (let i = 0; i < expr.length; ) {
    const c = expr[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = endOfString(expr, i);
      out += expr.slice(i, end);
      i = end;
    } else if (c === '#') {
      const nl = expr.indexOf('\n', i);
      const end = nl === -1 ? expr.length : nl;
      out += expr.slice(i, end);
      i = end;
    } else if (c === '$' && expr[i + 1] === '{') {
      const close = expr.indexOf('}', i);
      const end = close === -1 ? expr.length : close + 1;
      out += expr.slice(i, end);
      i = end;
    } else if (c === '{') {
      const close = closingBrace(expr, i);
      if (close === -1) {
        out += expr.slice(i);
        break;
      }
      const list = filterList(expr.slice(i + 1, close));
      const empty = list.body.trim() === '';
      const named = out.length > 0 && identChar.test(out[out.length - 1]!);
      if (list.removed > 0 && empty && !named) {
        // `{image!=""}` with no metric name: removing it would leave an invalid `{}`; keep the query as it is.
        out += expr.slice(i, close + 1);
      } else {
        removed += list.removed;
        out += list.removed > 0 && empty ? '' : `{${list.body}}`;
      }
      i = close + 1;
    } else {
      out += c;
      i++;
    }
  }
  return { expr: out, removed };
}
