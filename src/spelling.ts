/** Edit distance (Levenshtein) of two short strings: ids, flags, key names; the quadratic table is cheap. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/**
 * The known word nearest to a mistyped one ("--kubconfig" → "--kubeconfig"), when it is a plausible
 * misspelling: at most two edits, or four in ten of the longer word. Undefined when none is that near.
 */
export function closestWord(typed: string, known: readonly string[]): string | undefined {
  let best: { word: string; d: number } | undefined;
  for (const word of known) {
    const d = editDistance(typed.toLowerCase(), word.toLowerCase());
    if (!best || d < best.d) best = { word, d };
  }
  return best && best.d <= Math.max(2, Math.floor(Math.max(typed.length, best.word.length) * 0.4)) ? best.word : undefined;
}
