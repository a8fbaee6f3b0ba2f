import type { Finding } from '../../doctor/scan.js';
import type { WatchPost } from './state.js';

/** A remedy of ours that finished shortly before a symptom cleared: its id and who asked for it. */
export interface ClearedBy {
  readonly requestId: string;
  readonly requestedBy: string;
}

/**
 * How a surface shows the scheduled doctor's changes in a cluster's channel. The watch decides what
 * changed and when to say it; a reporter renders it and returns the message's ts where later updates
 * go (undefined when it could not post: the watch tries again at its next scan).
 */
export interface WatchReporter {
  /**
   * The watch has no record of this cluster (its first scan, or Redis lost its data): one message
   * says so and lists what is present now, the first `detailed` with their evidence and buttons.
   */
  started(cluster: string, channel: string, present: readonly Finding[], options: { everyMs: number; detailed: number }): Promise<string | undefined>;
  /** A symptom newly present: its evidence, Plan fix and Snooze. */
  appeared(cluster: string, channel: string, finding: Finding): Promise<string | undefined>;
  /** Symptoms newly present past the hour's budget: one message naming them and how to see them. */
  folded(cluster: string, channel: string, findings: readonly Finding[], perHour: number): Promise<string | undefined>;
  /** A symptom announced in `post` is absent now; `by` is our remedy that finished shortly before. */
  cleared(cluster: string, post: WatchPost, entry: { id: string; title: string }, at: Date, by?: ClearedBy): Promise<void>;
  /** A symptom seen cleared within the quiet period is present again: said in its thread, with its evidence. */
  returned(cluster: string, post: WatchPost, finding: Finding, at: Date): Promise<void>;
  /**
   * A symptom's clearings and returns passed its thread's budget: said once, with its state now (its
   * evidence when `present`), and nothing more until it stays the same for `quietMs`.
   */
  restless(cluster: string, post: WatchPost, entry: { id: string; title: string }, present: Finding | undefined, at: Date, quietMs: number): Promise<void>;
  /** A symptom that kept changing has stayed present (or cleared) since `since` for the quiet period; `unsaid` changes went unsaid. */
  settled(cluster: string, post: WatchPost, entry: { id: string; title: string }, present: boolean, since: Date, unsaid: number): Promise<void>;
  /** The doctor could not run on the cluster (said once, until it runs again). */
  unavailable(cluster: string, channel: string, message: string): Promise<string | undefined>;
  /** The doctor runs again, after `since`; said in the thread of the message that said it could not. */
  recovered(cluster: string, post: WatchPost | undefined, channel: string, since: Date, at: Date): Promise<void>;
  /** A person silenced a symptom until `until`. */
  snoozed(cluster: string, post: WatchPost, entry: { id: string; title: string }, by: string, until: Date): Promise<void>;
}
