import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogue } from '../src/catalogue/index.js';
import { match } from '../src/matching/index.js';
import { generateLog, prng } from './generate.js';

/**
 * The matching bars of PRODUCT.md, measured: a 10 MB log against `grep -F` over the same literals
 * in the same run, paste latency percentiles, and peak memory.
 */

const MB = 1024 * 1024;
const RUNS = 5;

/** Peak memory seen at the sampling points of the run. */
const peak = { rss: 0, heapUsed: 0 };
function sample(): void {
  const m = process.memoryUsage();
  peak.rss = Math.max(peak.rss, m.rss);
  peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
}

function bestOf(runs: number, f: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    f();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
    sample();
  }
  return best;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface MatchingResults {
  readonly logBytes: number;
  readonly patterns: number;
  readonly grepMs: number;
  readonly matcherMs: number;
  readonly grepMBs: number;
  readonly matcherMBs: number;
  /** The matcher's speed as a share of grep's: the bar is at least 1/3. */
  readonly ratio: number;
  readonly grepCount: string;
  readonly p50: number;
  readonly p99: number;
  readonly p99at40k: number;
  readonly peakRss: number;
  readonly peakHeap: number;
}

/** A paste of exactly `bytes` characters: a slice of generated log with one real error line in it. */
function paste(seed: number, bytes: number): string {
  return generateLog(seed, bytes, 1 + Math.floor(prng(seed)() * 40));
}

export function benchMatching(): MatchingResults {
  const dir = mkdtempSync(join(tmpdir(), 'medic-bench-'));
  try {
    const logPath = join(dir, 'log.txt');
    const patternsPath = join(dir, 'patterns.txt');
    writeFileSync(logPath, generateLog(42, 10 * MB));
    const literals = [...new Set(catalogue.flatMap((e) => e.signatures.errors.map((s) => s.toLowerCase())))];
    writeFileSync(patternsPath, `${literals.join('\n')}\n`);
    const text = readFileSync(logPath, 'utf8');
    sample();

    // (1) Throughput, side by side on the same file and literals. grep's time includes its start-up
    // and reading the (cached) file; the matcher's includes everything from the string to the answer.
    let grepCount = '';
    const grepMs = bestOf(RUNS, () => {
      const r = spawnSync('grep', ['-F', '-i', '-c', '-f', patternsPath, logPath], { encoding: 'utf8' });
      if (r.status !== 0 && r.status !== 1) throw new Error(`grep failed: ${r.stderr}`);
      grepCount = r.stdout.trim();
    });
    match(text); // compile the catalogue once, as the bot does at its first paste
    const matcherMs = bestOf(RUNS, () => void match(text));

    // (2) Paste latency: 1000 pastes of 1–40 KB, then 200 of exactly 40 KB.
    const rnd = prng(7);
    const pastes = Array.from({ length: 1000 }, (_, i) => paste(1000 + i, 1024 + Math.floor(rnd() * 39 * 1024)));
    const at40k = Array.from({ length: 200 }, (_, i) => paste(5000 + i, 40 * 1024));
    const time = (texts: readonly string[]): number[] =>
      texts
        .map((t) => {
          const start = process.hrtime.bigint();
          match(t);
          return Number(process.hrtime.bigint() - start) / 1e6;
        })
        .sort((a, b) => a - b);
    time(pastes.slice(0, 100)); // warm-up
    const latencies = time(pastes);
    sample();
    const latencies40k = time(at40k);
    sample();

    const logBytes = Buffer.byteLength(text);
    return {
      logBytes,
      patterns: literals.length,
      grepMs,
      matcherMs,
      grepMBs: logBytes / MB / (grepMs / 1000),
      matcherMBs: logBytes / MB / (matcherMs / 1000),
      ratio: grepMs / matcherMs,
      grepCount,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      p99at40k: percentile(latencies40k, 99),
      peakRss: peak.rss,
      peakHeap: peak.heapUsed,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
