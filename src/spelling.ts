/**
 * Edit distance of two short strings (ids, flags, key names, commands): insertions, deletions, substitutions and
 * swaps of two neighbouring letters, each one edit ("lsit" is one from "list", as people mistype it; optimal string
 * alignment). The quadratic table is cheap at these lengths.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
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
