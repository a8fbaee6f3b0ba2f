import type { DoctorReport, Finding } from '../../doctor/scan.js';
import type { Watched } from './state.js';

/** What one scan changes, before anything is posted. */
export interface WatchChanges {
  /** The record after this scan: every symptom present now, and those the scan could not judge. */
  readonly next: Map<string, Watched>;
  /** Symptoms to announce: newly present, or present without a post yet (snoozed until now, or a post that failed). */
  readonly announce: Finding[];
  /** Symptoms seen absent now, with what the watch knew of them; said in their thread when announced and not snoozed. */
  readonly cleared: { readonly id: string; readonly watched: Watched }[];
}

/**
 * Compares a report with what the watch remembers. Only `present` and `absent` change anything: an
 * entry the doctor could not judge this time keeps its record (never "cleared" for want of a look).
 * A snoozed symptom is recorded without being announced, so its snooze ending while it stays
 * present announces it once, and one announced before stays quiet.
 */
export function changesOf(previous: ReadonlyMap<string, Watched>, report: DoctorReport, snoozed: ReadonlySet<string>, now: Date): WatchChanges {
  const at = now.toISOString();
  const next = new Map<string, Watched>();
  const announce: Finding[] = [];
  const cleared: { id: string; watched: Watched }[] = [];
  const judged = new Set<string>();
  for (const f of report.findings) {
    judged.add(f.id);
    const known = previous.get(f.id);
    if (f.state === 'present') {
      const watched: Watched = known ? { ...known, seenAt: at, title: f.title } : { since: at, seenAt: at, title: f.title };
      next.set(f.id, watched);
      if (!watched.post && !snoozed.has(f.id)) announce.push(f);
    } else if (f.state === 'absent') {
      if (known) cleared.push({ id: f.id, watched: known });
    } else if (known) {
      next.set(f.id, known);
    }
  }
  // An entry the report does not name (one the worker's catalogue lacks) is left as it was.
  for (const [id, known] of previous) if (!judged.has(id)) next.set(id, known);
  return { next, announce, cleared };
}

/**
 * Whether a report says the doctor could not look at all: every entry with a detector unknown (the
 * cluster unreachable, every read forbidden). Then nothing is judged, and it is said once as such.
 */
export function blindness(report: DoctorReport): string | undefined {
  const judged = report.findings.filter((f) => f.reason !== 'no-detector' && f.state !== 'not-observable');
  if (judged.length === 0 || judged.some((f) => f.state !== 'unknown')) return undefined;
  const counts = new Map<string, number>();
  for (const f of judged) {
    const why = `${f.reason ?? 'error'}${f.message ? `: ${f.message}` : ''}`;
    counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  const [most] = [...counts].sort((a, b) => b[1] - a[1]);
  return `no check could read the cluster (${most![0]})`;
}
