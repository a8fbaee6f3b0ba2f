/** Nearest-rank percentiles over milliseconds, the way every figure of the Slack section is computed. */

/** p50, p99 and max of a set of latencies. */
export interface Percentiles {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}
