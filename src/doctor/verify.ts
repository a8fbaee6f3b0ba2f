import type { CatalogueEntry } from '../catalogue/model.js';
import type { ClusterGateway } from '../cluster/gateway.js';
import type { PlatformNames } from '../platform-names.js';
import type { ListScope, Read } from './detectors/detector.js';
import { readsOf } from './detectors/registry.js';
import { scan, type Finding } from './scan.js';

/**
 * What the entry's detector saw after its remedy's steps: the finding of its last look, how many looks
 * it took and over how long, and what it read (for "symptom cleared": where it looked and saw nothing).
 */
export interface Verification {
  readonly finding: Finding;
  readonly looks: number;
  readonly waitedMs: number;
  /** What the detector reads, in words (`the last 200 log lines of pod git-sensor-0 in devtroncd`). */
  readonly looked: readonly string[];
}

export interface VerifyOptions {
  /**
   * While the symptom is still present, look again for up to this long before saying so: a restarted
   * component, a controller's next sync or a volume's resize takes a moment to show. 0: one look.
   */
  readonly settleMs: number;
  /** Between looks; default a fifth of the window, between 0.2 s and 5 s. */
  readonly intervalMs?: number;
  /** Waits between looks (the clock, unless a caller keeps its own). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Stops looking again (the remedy was cancelled): the last look stands. */
  readonly stop?: () => Promise<boolean>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The default gap between looks: a few looks over the window, never hammering the API server. */
export const lookInterval = (settleMs: number): number => Math.min(5_000, Math.max(200, Math.round(settleMs / 5)));

function where(scope: ListScope, names: PlatformNames): string {
  return scope === 'cluster' ? 'every namespace' : names[scope];
}

/** One read in words, with the cluster's own names. */
export function describeRead(read: Read, names: PlatformNames): string {
  if ('serverVersion' in read) return "the API server's version";
  if ('crd' in read) return `customresourcedefinition/${read.crd}`;
  if ('certificate' in read) return `the certificate ${read.key} of secret ${names[read.in]}/${names[read.certificate]}`;
  if ('logs' in read) {
    const pods = 'label' in read.logs ? `the ${names[read.logs.label]} pods` : `pod ${names[read.logs.pod]}`;
    return `the last ${read.tailLines} log lines of ${pods} in ${names[read.in]}`;
  }
  if ('dashboard' in read) {
    if (read.dashboard === 'model') return `the panels of dashboard ${read.uid}`;
    if (read.dashboard === 'seriesCount') return `the metrics store's series for ${read.selector}, through the dashboard's data source`;
    return `the metrics dashboard's ${read.dashboard === 'dataSources' ? 'data sources' : read.dashboard}`;
  }
  if ('database' in read) return "the platform database's open sessions (pg_stat_activity)";
  const what = read.list === 'custom' ? `${read.custom}s` : read.list === 'warnings' ? 'warning events' : read.list;
  return `${what} in ${where(read.in, names)}`;
}

/**
 * Runs one entry's detector after its remedy, read-only: once, and again while the symptom is still
 * present, until it clears or the settle window is over. An `unknown` or `not-observable` answer is
 * final at once (looking again would not change why).
 */
export async function verifyEntry(gateway: ClusterGateway, names: PlatformNames, entry: CatalogueEntry, options: VerifyOptions): Promise<Verification> {
  const started = Date.now();
  const sleep = options.sleep ?? sleepFor;
  const interval = options.intervalMs ?? lookInterval(options.settleMs);
  const looked = [...new Set((entry.detector ? readsOf(entry.detector) : []).map((r) => describeRead(r, names)))];
  let looks = 0;
  for (;;) {
    const finding = (await scan(gateway, names, [entry])).findings[0]!;
    looks += 1;
    const waitedMs = Date.now() - started;
    const over = waitedMs + interval > options.settleMs;
    if (finding.state !== 'present' || over || (await options.stop?.())) return { finding, looks, waitedMs, looked };
    await sleep(interval);
  }
}
