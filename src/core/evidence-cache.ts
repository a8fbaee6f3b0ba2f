import { findEntry } from '../catalogue/index.js';
import type { Config } from '../config.js';
import type { Finding } from '../doctor/index.js';
import type { DoctorDesk } from './doctor.js';
import type { ClusterEvidence } from './reconcile.js';

/** How long a paste's evidence may take before the answer says it is unavailable (default of `pasteEvidenceSeconds`). */
export const pasteEvidenceTimeoutMs = 5_000;
/** How long a finding is reused for other pastes naming the same entry on the same cluster (default of `pasteEvidenceReuseSeconds`). */
export const pasteEvidenceTtlMs = 45_000;
/** How long "could not read" is reused: shorter, so that a worker started again is seen soon. */
export const pasteEvidenceFailedTtlMs = 10_000;

/** What the cache needs to know; every field has a default above. */
export interface EvidenceCacheOptions {
  readonly timeoutMs?: number;
  readonly ttlMs?: number;
  readonly failedTtlMs?: number;
  readonly now?: () => number;
}

/** The cache's options as configured (`pasteEvidenceSeconds`, `pasteEvidenceReuseSeconds`). */
export const evidenceCacheOptions = (config: Pick<Config, 'pasteEvidenceSeconds' | 'pasteEvidenceReuseSeconds'>): EvidenceCacheOptions => ({
  timeoutMs: config.pasteEvidenceSeconds * 1000,
  ttlMs: config.pasteEvidenceReuseSeconds * 1000,
  failedTtlMs: Math.min(pasteEvidenceFailedTtlMs, config.pasteEvidenceReuseSeconds * 1000),
});

type Slot = { until: number; readonly finding: Promise<Finding | { readonly failed: string }> };

/**
 * The doctor's findings for pasted errors, per cluster and entry, kept in this process's memory for
 * `ttlMs`. A flood of pastes about one entry runs one doctor job on its cluster, not one each: a paste
 * whose entries were read (or are being read) in the last `ttlMs` waits for that read (with `ttlMs` 0,
 * only pastes arriving while a read is under way share it). Memory rather
 * than Redis: a finding is small and short-lived, and each bot replica running its own job at most
 * once per entry and `ttlMs` is bound enough. The cache never holds more than one slot per configured
 * cluster and catalogue entry.
 */
export class ClusterEvidenceCache {
  private readonly slots = new Map<string, Slot>();
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly failedTtlMs: number;
  private readonly now: () => number;
  /** Doctor jobs this cache has queued (for tests and the bench: the flood bound). */
  jobs = 0;

  constructor(
    private readonly desk: DoctorDesk,
    options: EvidenceCacheOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? pasteEvidenceTimeoutMs;
    this.ttlMs = options.ttlMs ?? pasteEvidenceTtlMs;
    this.failedTtlMs = options.failedTtlMs ?? pasteEvidenceFailedTtlMs;
    this.now = options.now ?? Date.now;
  }

  /** The findings of `entries` on `cluster`, or why they could not be read; resolves within the timeout, never rejects. */
  async check(cluster: string, entries: readonly string[], requestedBy: string): Promise<ClusterEvidence> {
    const now = this.now();
    for (const [key, slot] of this.slots) if (slot.until <= now) this.slots.delete(key);
    const key = (id: string) => `${cluster}\u0000${id}`;
    const missing = entries.filter((id) => !this.slots.has(key(id)));
    if (missing.length > 0) {
      this.jobs++;
      const run = this.read(cluster, missing, requestedBy);
      for (const id of missing) {
        // Kept while in flight (pastes arriving meanwhile wait for it), then for the TTL from its answer.
        const slot: Slot = { until: Number.POSITIVE_INFINITY, finding: run.then((r) => ('failed' in r ? r : (r.findings.find((f) => f.id === id) ?? { failed: 'the worker did not report on it' }))) };
        this.slots.set(key(id), slot);
        void slot.finding.then((f) => (slot.until = this.now() + ('failed' in f ? this.failedTtlMs : this.ttlMs)));
      }
    }
    const got = await Promise.all(entries.map((id) => this.slots.get(key(id))!.finding));
    const failed = got.filter((g): g is { failed: string } => 'failed' in g);
    if (failed.length === got.length) return { ok: false, cluster, why: failed[0]?.failed ?? 'nothing to check' };
    // Some entries read, some not (a cached finding, a new read that failed): those not read are unknown.
    return { ok: true, cluster, findings: got.map((g, i) => ('failed' in g ? unread(entries[i]!, g.failed) : g)) };
  }

  /** One doctor job for `entries`, bounded by the timeout even if the queue itself does not answer. */
  private async read(cluster: string, entries: readonly string[], requestedBy: string): Promise<{ findings: readonly Finding[] } | { failed: string }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ failed: string }>((resolve) => {
      // The job's own timeout comes first; this one only catches a queue that does not answer at all.
      timer = setTimeout(() => resolve({ failed: `no answer from ${cluster} within ${this.timeoutMs / 1000} s` }), this.timeoutMs + 1_000);
    });
    try {
      const job = this.desk
        .runDoctor(cluster, requestedBy, { entries, timeoutMs: this.timeoutMs })
        .then((r) => (r.ok ? { findings: r.report.findings } : { failed: r.message }))
        .catch((err: unknown) => ({ failed: err instanceof Error ? err.message : String(err) }));
      return await Promise.race([job, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function unread(id: string, why: string): Finding {
  const entry = findEntry(id);
  return { id, ref: entry?.ref ?? '', title: entry?.title ?? id, state: 'unknown', evidence: [], reason: 'unreachable', message: why };
}
