import type { Logger } from 'pino';
import { appearedView, clearedView, foldedView, recoveredView, restlessView, returnedView, settledView, snoozedView, startedView, unavailableView } from '../core/doctor-watch.js';
import type { View } from '../core/view.js';
import type { Finding } from '../doctor/scan.js';
import { repliesPerHour, type ClearedBy, type WatchPost, type WatchReporter } from '../jobs/watch/doctor-watch.js';
import type { RemedyWrites } from '../slack/outbox.js';
import { slackMessage } from '../views/slack/answer.js';

/**
 * The scheduled doctor's changes in a cluster's Slack channel: a message per symptom newly present
 * (its thread gets the rest), one for those past the budget, and the doctor's outages. Its writes
 * are remedy writes of the outbox: they go ahead of paste answers and are never dropped.
 */
export class SlackWatchReporter implements WatchReporter {
  constructor(
    private readonly slack: RemedyWrites,
    private readonly logger: Logger,
  ) {}

  private async post(cluster: string, channel: string, view: View, threadTs?: string): Promise<string | undefined> {
    try {
      const res = await this.slack.postMessage({ channel, ...slackMessage(view), ...(threadTs ? { thread_ts: threadTs } : {}) });
      return res.ts;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, cluster, channel }, 'the scheduled doctor could not post');
      return undefined;
    }
  }

  started(cluster: string, channel: string, present: readonly Finding[], options: { everyMs: number; detailed: number }): Promise<string | undefined> {
    return this.post(cluster, channel, startedView(present, cluster, options));
  }

  appeared(cluster: string, channel: string, finding: Finding): Promise<string | undefined> {
    return this.post(cluster, channel, appearedView(finding, cluster));
  }

  folded(cluster: string, channel: string, findings: readonly Finding[], perHour: number): Promise<string | undefined> {
    return this.post(cluster, channel, foldedView(findings, cluster, perHour));
  }

  async cleared(cluster: string, post: WatchPost, entry: { id: string; title: string }, at: Date, by?: ClearedBy): Promise<void> {
    await this.post(cluster, post.channel, clearedView(entry, cluster, at, by), post.ts);
  }

  async returned(cluster: string, post: WatchPost, finding: Finding, at: Date): Promise<void> {
    await this.post(cluster, post.channel, returnedView(finding, cluster, at), post.ts);
  }

  async restless(cluster: string, post: WatchPost, entry: { id: string; title: string }, present: Finding | undefined, at: Date, quietMs: number): Promise<void> {
    await this.post(cluster, post.channel, restlessView(entry, cluster, present, at, quietMs, repliesPerHour), post.ts);
  }

  async settled(cluster: string, post: WatchPost, entry: { id: string; title: string }, present: boolean, since: Date, unsaid: number): Promise<void> {
    await this.post(cluster, post.channel, settledView(entry, cluster, present, since, unsaid), post.ts);
  }

  unavailable(cluster: string, channel: string, message: string): Promise<string | undefined> {
    return this.post(cluster, channel, unavailableView(cluster, message));
  }

  async recovered(cluster: string, post: WatchPost | undefined, channel: string, since: Date, at: Date): Promise<void> {
    await this.post(cluster, post?.channel ?? channel, recoveredView(cluster, since, at), post?.ts);
  }

  async snoozed(cluster: string, post: WatchPost, entry: { id: string; title: string }, by: string, until: Date): Promise<void> {
    await this.post(cluster, post.channel, snoozedView(entry, cluster, by, until), post.ts);
  }
}
