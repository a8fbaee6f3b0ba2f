/** The longest line the matcher reads back in full; longer lines are cut (evidence shows 300). */
const MAX_LINE = 4096;

/** The line that starts at `start`, without its line break, cut to MAX_LINE characters. */
export function lineAt(text: string, start: number): string {
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  if (end - start > MAX_LINE) end = start + MAX_LINE;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return text.slice(start, end);
}

/** Where the 1-based `line` of the text starts (the text's end when it has fewer lines). */
export function lineStart(text: string, line: number): number {
  let at = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', at);
    if (next < 0) return text.length;
    at = next + 1;
  }
  return at;
}
