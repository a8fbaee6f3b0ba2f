import type { CatalogueEntry } from '../catalogue/model.js';
import { offeredParams } from '../catalogue/params.js';
import type { ClusterGateway } from '../cluster/gateway.js';
import type { PlatformNames } from '../platform-names.js';
import { Unreadable, type Evidence, type UnknownReason } from './detectors/detector.js';
import { detect, readsOf } from './detectors/registry.js';
import { clean, clip } from './detectors/shown-text.js';
import { readSnapshot } from './reads.js';

/** What the doctor found for one entry. */
export interface Finding {
  readonly id: string;
  readonly ref: string;
  readonly title: string;
  readonly state: 'present' | 'absent' | 'unknown' | 'not-observable';
  readonly evidence: readonly Evidence[];
  /** For `unknown`: why it could not tell. */
  readonly reason?: UnknownReason | 'no-detector';
  /** For `unknown`, what went wrong; for `not-observable`, what the person should check instead. */
  readonly message?: string;
  /** Values of the entry's fix parameters the evidence shows, for the fix line offered with it (never a secret). */
  readonly fixParams?: Readonly<Record<string, string>>;
}

/** One doctor run: a finding per catalogue entry, in the catalogue's order. */
export interface DoctorReport {
  readonly findings: readonly Finding[];
  readonly startedAt: string;
  readonly tookMs: number;
}

const maxEvidence = 8;
const maxDetail = 240;
/** An object's kind, namespace and name: Kubernetes names are at most 253 characters. */
const maxObject = 300;

/** Evidence as it leaves the worker: secrets redacted, each detail short, a few per finding. */
function tidy(evidence: readonly Evidence[]): Evidence[] {
  const shown = evidence.slice(0, maxEvidence).map((e) => ({ object: clip(e.object, maxObject), detail: clip(e.detail, maxDetail) }));
  if (evidence.length > maxEvidence) shown.push({ object: '…', detail: `${evidence.length - maxEvidence} more` });
  return shown;
}

/**
 * Runs every entry's detector against the cluster: their reads are merged and read once, then each
 * detector judges from the shared snapshot. Read-only.
 */
export async function scan(gateway: ClusterGateway, names: PlatformNames, entries: readonly CatalogueEntry[], now = new Date()): Promise<DoctorReport> {
  const started = Date.now();
  const snapshot = await readSnapshot(gateway, names, entries.flatMap((e) => (e.detector ? readsOf(e.detector) : [])), now);
  const findings = entries.map((e): Finding => {
    const base = { id: e.id, ref: e.ref, title: e.title };
    if (!e.detector) return { ...base, state: 'unknown', evidence: [], reason: 'no-detector', message: 'this entry has no detector yet' };
    try {
      const v = detect(e.detector, snapshot);
      if (v.state === 'not-observable') return { ...base, state: v.state, evidence: [], message: v.check };
      if (v.state === 'unknown') return { ...base, state: v.state, evidence: [], reason: v.reason, message: clean(v.message) };
      const fixParams = v.state === 'present' ? offeredParams(e, v.fixParams) : undefined;
      return { ...base, state: v.state, evidence: tidy(v.evidence), ...(fixParams ? { fixParams } : {}) };
    } catch (err) {
      if (err instanceof Unreadable) return { ...base, state: 'unknown', evidence: [], reason: err.reason, message: clean(err.message) };
      return { ...base, state: 'unknown', evidence: [], reason: 'error', message: `the detector failed: ${clean(err instanceof Error ? err.message : String(err))}` };
    }
  });
  return { findings, startedAt: now.toISOString(), tookMs: Date.now() - started };
}
