import { loadavg } from 'node:os';
import { catalogue } from '../src/catalogue/index.js';
import { closestWord, editDistance } from '../src/spelling.js';
import { writeSection } from './results.js';

/**
 * Did-you-mean on an id typed after `fix` or `explain`: a word as long as a message holds (40 KB) against every
 * catalogue id, as closestWord answers it (ids whose length is too far from the word's are not compared), beside the
 * same search comparing it with every id letter by letter (what it did before), in one run; and a typo, for scale.
 */
export function recordSpellingBench(results: string): boolean {
  const ids = catalogue.map((e) => e.id);
  const long = 'x'.repeat(40_000);
  const time = (fn: () => unknown, n: number): number => {
    fn();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    return (performance.now() - t0) / n;
  };
  const load = loadavg()[0]!;
  const now = time(() => closestWord(long, ids), 20);
  const every = time(() => ids.map((id) => editDistance(long, id)), 3);
  const typo = time(() => closestWord('buildlogs', ids), 2000);
  const ok = now < 5;
  writeSection(
    results,
    'Did-you-mean',
    `Run ${new Date().toISOString().slice(0, 10)}, 1-minute load average ${load.toFixed(2)} at the start. Produced by \`npm run bench -- spelling\` (bench/spelling.ts).

| measure | mean per call | bar | verdict |
|---|---|---|---|
| a 40 KB word against the ${ids.length} catalogue ids (closestWord) | ${now.toFixed(3)} ms | under 5 ms: a message's word never stalls the bot | ${ok ? 'PASS' : '**FAIL**'} |
| the same word compared with every id letter by letter (as before) | ${every.toFixed(1)} ms | | ${(every / now).toFixed(0)}× closestWord's time |
| a typo (\`buildlogs\`) | ${typo.toFixed(3)} ms | | |
`,
  );
  console.log(`did-you-mean: 40 KB word ${now.toFixed(3)} ms, letter by letter ${every.toFixed(1)} ms, typo ${typo.toFixed(3)} ms`);
  return ok;
}
