import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkValues } from '../src/values/check.js';
import { parseSetArgument } from '../src/values/set-flags.js';
import { writeSection } from './results.js';

/**
 * `values check` on a `--set` key of 1,000, 2,000 and 4,000 dotted segments: time grows with the length
 * of the key, not with its square. The check refuses such keys (deeper than 100 levels) right after
 * reading them, so the end-to-end figure is the cost of reading; the parser alone (which has no limit)
 * is timed as well. A ratio near 2 for each doubling is linear; near 4 would be quadratic.
 */

const sizes = [1000, 2000, 4000] as const;
const runs = 40;

const dotted = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}`).join('.');

/**
 * The best of `runs` timings of `fn`, after as many unmeasured runs to warm the code up. The best, not the
 * median: on a shared machine the other timings carry other processes' work and garbage collection.
 */
function best(fn: () => void): number {
  for (let i = 0; i < runs; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return Math.min(...times);
}

export interface SegmentsResult {
  readonly rows: { segments: number; checkMs: number; parseMs: number; answer: string }[];
  /** t(2n)/t(n) for each doubling, end to end and parser alone. */
  readonly checkRatios: number[];
  readonly parseRatios: number[];
}

export function benchValuesSegments(): SegmentsResult {
  const rows = sizes.map((n) => {
    const key = dotted(n);
    const paste = `--set ${key}=1`;
    const answer = checkValues(paste);
    return {
      segments: n,
      checkMs: best(() => checkValues(paste)),
      parseMs: best(() => parseSetArgument(`${key}=1`, 'set')),
      answer: answer.ok ? `${answer.problems.length} problems` : answer.message,
    };
  });
  const ratios = (pick: (r: (typeof rows)[number]) => number) => rows.slice(1).map((r, i) => pick(r) / pick(rows[i]!));
  return { rows, checkRatios: ratios((r) => r.checkMs), parseRatios: ratios((r) => r.parseMs) };
}

/** Linear when no doubling costs more than three times as much (quadratic would be four). */
const linear = (ratios: number[]): boolean => ratios.every((r) => r <= 3);

export function recordValuesBench(resultsPath: string): boolean {
  const load = loadavg()[0]!;
  const r = benchValuesSegments();
  const ok = linear(r.checkRatios) && linear(r.parseRatios);
  const body = `Run ${new Date().toISOString().slice(0, 10)} on ${availableParallelism()} cores (nproc), Node ${process.version}, 1-minute load average ${load.toFixed(2)} at the start.
Produced by \`npm run bench\` (bench/values.ts; alone: \`npx tsx bench/values.ts\`). Best of ${runs} runs each, after ${runs} warm-up runs.

**\`values check\` on a \`--set\` key of many dotted segments** (\`--set k0.k1.…=1\`). The check refuses keys deeper
than 100 levels as soon as it has read them, so the end-to-end time is the cost of reading the paste (shell words,
helm's --set syntax) and answering; the parser alone has no limit and is timed on the same key.

| segments | \`checkValues\` end to end | \`parseSetArgument\` alone | answer |
|---|---|---|---|
${r.rows.map((row) => `| ${row.segments.toLocaleString('en')} | ${row.checkMs.toFixed(3)} ms | ${row.parseMs.toFixed(3)} ms | ${row.answer} |`).join('\n')}

| doubling | end to end | parser alone | bar | verdict |
|---|---|---|---|---|
${sizes
  .slice(1)
  .map((n, i) => `| ${sizes[i]!.toLocaleString('en')} → ${n.toLocaleString('en')} | ${r.checkRatios[i]!.toFixed(2)}× | ${r.parseRatios[i]!.toFixed(2)}× | at most 3× (linear 2×, quadratic 4×) | ${r.checkRatios[i]! <= 3 && r.parseRatios[i]! <= 3 ? 'PASS' : 'FAIL'} |`)
  .join('\n')}

Before the fix (the code of commit bf3d3c3, timed the same way once, on 2026-11-22): 6.5 ms at 500 segments,
22.3 ms at 1,000 (3.4× for a doubling), 72 ms at 1,500, and at 2,000 the check ran out of stack: its walks over
the values copied and rescanned the whole key path at every level.`;
  writeSection(resultsPath, 'Values check', body);
  console.log(body);
  return ok;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  if (!recordValuesBench(join(import.meta.dirname, 'RESULTS.md'))) process.exitCode = 1;
}
