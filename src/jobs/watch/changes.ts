import type { DoctorReport, Finding } from '../../doctor/scan.js';
import type { WatchPost, Watched } from './state.js';

const hourMs = 3_600_000;

/**
 * How long a cleared symptom's record is kept so that its return is said in its thread rather than
 * in a new post, and how long a symptom that keeps changing must stay the same before its thread
 * hears of it again: an hour (the post budget's hour, so a flapping symptom cannot take a new post
 * each hour's budget allows), or six intervals when longer (six scans in a row agreeing, whatever the
 * interval).
 */
export const quietMs = (everyMs: number) => Math.max(hourMs, 6 * everyMs);
/** Clearings and returns said in one symptom's thread per sliding hour; the next change says it keeps changing. */
export const repliesPerHour = 3;

/** What a symptom's thread is told by one scan. */
export type ThreadNote =
  | { readonly kind: 'cleared'; readonly id: string; readonly post: WatchPost; readonly watched: Watched }
  | { readonly kind: 'returned'; readonly post: WatchPost; readonly finding: Finding }
  | { readonly kind: 'restless'; readonly id: string; readonly title: string; readonly post: WatchPost; readonly present?: Finding }
  | { readonly kind: 'settled'; readonly id: string; readonly title: string; readonly post: WatchPost; readonly present: boolean; readonly since: string; readonly unsaid: number };

/** What one scan changes, before anything is posted. */
export interface WatchChanges {
  /** The record after this scan: every symptom present now, and those the scan could not judge. */
  readonly next: Map<string, Watched>;
  /** The symptoms announced and seen cleared within the quiet period, kept for their return. */
  readonly cleared: Map<string, Watched>;
  /** Symptoms to announce: newly present, or present without a post yet (snoozed until now, or a post that failed). */
  readonly announce: Finding[];
  /** What the threads of symptoms announced before are told: clearings, returns, and those that keep changing. */
  readonly notes: ThreadNote[];
}

/**
 * Counts a clearing or a return against its thread's budget: said within it; the first change past
 * it says the symptom keeps changing; after that nothing (counted) until it stays the same for the
 * quiet period. A snoozed symptom's changes are recorded and never said.
 */
function change(w: Watched, at: string, snoozed: boolean): { watched: Watched; say: 'said' | 'restless' | 'none' } {
  if (snoozed) return { watched: { ...w, changedAt: at }, say: 'none' };
  if (w.quietSince) return { watched: { ...w, changedAt: at, unsaid: (w.unsaid ?? 0) + 1 }, say: 'none' };
  const replies = (w.replies ?? []).filter((t) => Date.parse(at) - Date.parse(t) < hourMs);
  if (replies.length < repliesPerHour) return { watched: { ...w, changedAt: at, replies: [...replies, at] }, say: 'said' };
  return { watched: { ...w, changedAt: at, replies, quietSince: at, unsaid: 0 }, say: 'restless' };
}

/** A record whose thread hears its changes again, with a fresh budget. */
function calm(w: Watched): Watched {
  const { quietSince: _q, unsaid: _u, replies: _r, ...rest } = w;
  return rest;
}

/**
 * Compares a report with what the watch remembers. Only `present` and `absent` change anything: an
 * entry the doctor could not judge this time keeps its record (never "cleared" for want of a look).
 * A snoozed symptom is recorded without being announced, so its snooze ending while it stays
 * present announces it once, and one announced before stays quiet. A symptom back within the quiet
 * period after its clearing is said in its thread; after it, it is new again.
 */
export function changesOf(previous: ReadonlyMap<string, Watched>, recent: ReadonlyMap<string, Watched>, report: DoctorReport, snoozed: ReadonlySet<string>, now: Date, quiet: number): WatchChanges {
  const at = now.toISOString();
  const t = now.getTime();
  const next = new Map<string, Watched>();
  const cleared = new Map<string, Watched>();
  const announce: Finding[] = [];
  const notes: ThreadNote[] = [];
  const stable = (w: Watched) => t - Date.parse(w.changedAt ?? w.since) >= quiet;
  /** A cleared record stays for its quiet period; one that kept changing says at its end that it stayed cleared. */
  const keep = (id: string, gone: Watched, judgedAbsent: boolean) => {
    if (!stable(gone)) cleared.set(id, gone);
    else if (gone.quietSince && gone.post && judgedAbsent && !snoozed.has(id)) notes.push({ kind: 'settled', id, title: gone.title, post: gone.post, present: false, since: gone.changedAt ?? gone.clearedAt!, unsaid: gone.unsaid ?? 0 });
  };
  const judged = new Set<string>();
  for (const f of report.findings) {
    judged.add(f.id);
    const known = previous.get(f.id);
    const gone = recent.get(f.id);
    const hushed = snoozed.has(f.id);
    if (f.state === 'present') {
      if (known) {
        let watched: Watched = { ...known, seenAt: at, title: f.title };
        if (watched.quietSince && stable(watched)) {
          if (watched.post && !hushed) notes.push({ kind: 'settled', id: f.id, title: f.title, post: watched.post, present: true, since: watched.changedAt!, unsaid: watched.unsaid ?? 0 });
          watched = calm(watched);
        }
        next.set(f.id, watched);
        if (!watched.post && !hushed) announce.push(f);
      } else if (gone?.post && !stable(gone)) {
        const { clearedAt: _c, ...back } = gone;
        const { watched, say } = change({ ...back, since: at, seenAt: at, title: f.title }, at, hushed);
        next.set(f.id, watched);
        if (say === 'said') notes.push({ kind: 'returned', post: gone.post, finding: f });
        if (say === 'restless') notes.push({ kind: 'restless', id: f.id, title: f.title, post: gone.post, present: f });
      } else {
        next.set(f.id, { since: at, seenAt: at, title: f.title });
        if (!hushed) announce.push(f);
      }
    } else if (f.state === 'absent') {
      if (known?.post) {
        const { watched, say } = change({ ...known, clearedAt: at }, at, hushed);
        cleared.set(f.id, watched);
        if (say === 'said') notes.push({ kind: 'cleared', id: f.id, post: known.post, watched: known });
        if (say === 'restless') notes.push({ kind: 'restless', id: f.id, title: known.title, post: known.post });
      } else if (gone) keep(f.id, gone, true);
    } else {
      if (known) next.set(f.id, known);
      if (gone) keep(f.id, gone, false);
    }
  }
  // An entry the report does not name (one the worker's catalogue lacks) is left as it was.
  for (const [id, known] of previous) if (!judged.has(id)) next.set(id, known);
  for (const [id, gone] of recent) if (!judged.has(id)) keep(id, gone, false);
  return { next, cleared, announce, notes };
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
