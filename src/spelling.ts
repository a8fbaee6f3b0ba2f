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
  const near = (a: number, b: number): number => Math.max(2, Math.floor(Math.max(a, b) * 0.4));
  const lower = typed.toLowerCase();
  let best: { word: string; d: number } | undefined;
  for (const word of known) {
    // Words whose lengths differ by more than the edits allowed are never near (a difference of n letters is at
    // least n edits): a 40 KB word typed after `fix` is not compared letter by letter with every id.
    if (Math.abs(typed.length - word.length) > near(typed.length, word.length)) continue;
    const d = editDistance(lower, word.toLowerCase());
    if (!best || d < best.d) best = { word, d };
  }
  return best && best.d <= near(typed.length, best.word.length) ? best.word : undefined;
}
