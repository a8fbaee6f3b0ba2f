/**
 * The words that flag lines of `kubectl get jobs` / `kubectl get pods` tables: what the scanner looks
 * for (literals.ts), what it records (hits.ts) and what the table reader reads (kubectl.ts).
 */

/** What a flagged line may be. */
export type TableMarker = 'job-header' | 'pod-header' | 'incomplete' | 'image-pull' | 'crash-loop';

/** The literals that flag table lines (matched as whole words, case-insensitively). */
export const TABLE_MARKERS: readonly (readonly [string, TableMarker])[] = [
  ['completions', 'job-header'],
  ['restarts', 'pod-header'],
  ['0/1', 'incomplete'],
  ['imagepullbackoff', 'image-pull'],
  ['errimagepull', 'image-pull'],
  ['crashloopbackoff', 'crash-loop'],
];

/** A line where a kubectl table marker matched. */
export interface MarkerHit {
  readonly marker: TableMarker;
  readonly line: number;
  readonly start: number;
}

