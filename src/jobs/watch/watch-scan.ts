import type { Logger } from 'pino';
import type { DoctorWatchRules } from '../../config.js';
import type { DoctorReport, Finding } from '../../doctor/scan.js';
import type { AuditTrail } from '../audit.js';
import type { RequestStore } from '../requests.js';
import { remedyThatCleared } from './attribution.js';
import { blindness, changesOf, quietMs, type ThreadNote } from './changes.js';
import type { WatchReporter } from './reporter.js';
import type { WatchState, Watched } from './state.js';

/** What one scan works with: the cluster's record, its rules, and where it says things. */
export interface ScanParts {
  readonly state: WatchState;
  readonly rules: DoctorWatchRules;
  readonly reporter: WatchReporter;
  readonly audit: AuditTrail;
  readonly store: RequestStore;
  readonly logger: Logger;
}

/** A doctor's result as the watch gets it: the report, or why there is none. */
export type ScanInput = { ok: true; report: DoctorReport } | { ok: false; message: string };

/** How far back a remedy's end may lie and still be credited with a clearing: an hour, or two intervals when longer. */
const creditWindowMs = (everyMs: number) => Math.max(3_600_000, 2 * everyMs);

/**
 * The doctor could not look: said once (the record keeps where), never at every interval. Nothing is
 * judged, so nothing is announced or cleared.
 */
async function couldNotRun(parts: ScanParts, message: string, now: Date): Promise<void> {
  const { state, rules, reporter } = parts;
  if (await state.unavailable()) return;
  const ts = await reporter.unavailable(state.cluster, rules.channel, message);
  await state.setUnavailable({ since: now.toISOString(), message, ...(ts ? { post: { channel: rules.channel, ts } } : {}) });
}

/** Posts the symptoms to announce: one message each within the hour's budget, the rest folded into one. */
async function announce(parts: ScanParts, findings: readonly Finding[], next: Map<string, Watched>, now: Date): Promise<void> {
  const { state, rules, reporter } = parts;
  const allowed = await state.budget(findings.length, rules.newPostsPerHour, now.getTime(), `${now.getTime()}-${Math.random().toString(36).slice(2, 8)}`);
  for (const f of findings.slice(0, allowed)) {
    const ts = await reporter.appeared(state.cluster, rules.channel, f);
    if (ts) next.set(f.id, { ...next.get(f.id)!, post: { channel: rules.channel, ts } });
  }
  const rest = findings.slice(allowed);
  if (rest.length === 0) return;
  const ts = await reporter.folded(state.cluster, rules.channel, rest, rules.newPostsPerHour);
  if (ts) for (const f of rest) next.set(f.id, { ...next.get(f.id)!, post: { channel: rules.channel, ts } });
}

/** Tells a symptom's thread what became of it: a clearing (credited to our remedy when one finished shortly before), a return, that it keeps changing, or that it stopped. */
async function tell(parts: ScanParts, note: ThreadNote, now: Date): Promise<void> {
  const { state, rules, reporter } = parts;
  if (note.kind === 'returned') return reporter.returned(state.cluster, note.post, note.finding, now);
  if (note.kind === 'restless') return reporter.restless(state.cluster, note.post, { id: note.id, title: note.title }, note.present, now, quietMs(rules.everyMs));
  if (note.kind === 'settled') return reporter.settled(state.cluster, note.post, { id: note.id, title: note.title }, note.present, new Date(note.since), note.unsaid);
  const { id, watched } = note;
  const by = await remedyThatCleared(parts.audit, parts.store, state.cluster, id, Math.max(Date.parse(watched.since), now.getTime() - creditWindowMs(rules.everyMs)));
  await reporter.cleared(state.cluster, note.post, { id, title: watched.title }, now, by);
}

/**
 * One scan's changes, from a doctor's result: the doctor could not run (said once), it runs again
 * (said once), the watch has no record (one message with what is present now), symptoms newly present
 * (announced within the budget), and in their threads within each one's budget: cleared (credited
 * to our remedy when one finished shortly before), back within the quiet period, or changing too
 * often to say each change. Snoozed symptoms are recorded and never said. Returns false when the
 * doctor could not run.
 */
export async function applyScan(parts: ScanParts, input: ScanInput, now: Date): Promise<boolean> {
  const { state, rules, reporter } = parts;
  const blind = input.ok ? blindness(input.report) : input.message;
  if (blind !== undefined || !input.ok) {
    await couldNotRun(parts, blind ?? 'it did not answer', now);
    await state.countScan();
    return false;
  }
  const down = await state.unavailable();
  if (down) {
    await reporter.recovered(state.cluster, down.post, rules.channel, new Date(down.since), now);
    await state.setUnavailable(undefined);
  }
  const previous = await state.watched();
  const recent = await state.recentlyCleared();
  const present = input.report.findings.filter((f) => f.state === 'present');
  const snoozes = await state.snoozes([...new Set([...present.map((f) => f.id), ...previous.keys(), ...recent.keys()])]);
  const quiet = quietMs(rules.everyMs);
  const changes = changesOf(previous, recent, input.report, new Set(snoozes.keys()), now, quiet);
  if (!(await state.established())) {
    // No record: the symptoms present are listed once, in one message, whatever the reason.
    const listed = changes.announce;
    const ts = await reporter.started(state.cluster, rules.channel, listed, { everyMs: rules.everyMs, detailed: rules.newPostsPerHour });
    if (ts) for (const f of listed) changes.next.set(f.id, { ...changes.next.get(f.id)!, post: { channel: rules.channel, ts } });
    if (ts) await state.save(changes.next, now);
    return true;
  }
  await announce(parts, changes.announce, changes.next, now);
  for (const note of changes.notes) await tell(parts, note, now);
  // Kept two intervals past the quiet period, so the scan that ends it still finds the record.
  await state.save(changes.next, now, changes.cleared, quiet + 2 * rules.everyMs);
  return true;
}
