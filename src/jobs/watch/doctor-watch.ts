import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { findEntry } from '../../catalogue/index.js';
import { doctorWatchRules, type Config, type DoctorWatchRules } from '../../config.js';
import type { ApprovalPolicy } from '../lifecycle/approval-policy.js';
import type { Answer } from '../lifecycle/context.js';
import type { RemedyCoordinator } from '../lifecycle/coordinator.js';
import { askedToFix } from './attribution.js';
import type { WatchReporter } from './reporter.js';
import { WatchState } from './state.js';
import { applyScan } from './watch-scan.js';

export type { ClearedBy, WatchReporter } from './reporter.js';
export type { WatchPost } from './state.js';
export { repliesPerHour } from './changes.js';

/** What the watch is built from; the composition root makes each part once and hands it in. */
export interface DoctorWatchOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** The bot's Redis connection; its owner closes it after the watch. */
  readonly redis: Redis;
  /** The coordinator: it runs the doctor jobs and keeps the requests and the audit trail. */
  readonly desk: Pick<RemedyCoordinator, 'runDoctor' | 'store' | 'audit'>;
  readonly policy: ApprovalPolicy;
  readonly reporter: WatchReporter;
  /** How the surface names a person in an answer (a Slack mention). */
  readonly nameOf?: (user: string) => string;
}

/** How long a snooze silences a symptom. */
export const snoozeMs = 24 * 3_600_000;
/** Who the scheduled doctor's jobs and audit records are by. */
export const watchRequester = 'scheduled-doctor';

/** How long a scan waits for the worker: five intervals, between 3 s and a minute. */
const doctorTimeoutMs = (everyMs: number) => Math.min(60_000, Math.max(3_000, 5 * everyMs));
/** A scan's lock outlives its doctor's timeout by this much, so a replica that died mid-scan frees it in time. */
const lockMarginMs = 30_000;
/** How long stopping waits for a scan under way. */
const stopWaitMs = 5_000;
/** After a Redis error, the next try comes this soon (or at the interval, when shorter). */
const retryMs = 5_000;

/**
 * The scheduled doctor: per cluster with a channel, every interval one scan across all bot replicas
 * (a Redis lock and the interval's slot), and only changes posted (see watch-scan.ts). It runs the
 * doctor through the coordinator's queue, keeps what it announced in Redis, and renders nothing: the
 * surface's reporter does.
 */
export class DoctorWatch {
  private readonly owner = randomBytes(6).toString('hex');
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly warnedAt = new Map<string, number>();
  private stopped = false;

  constructor(private readonly options: DoctorWatchOptions) {}

  /** The clusters watched: those with a channel. */
  clusters(): string[] {
    return this.options.config.clusters.filter((c) => doctorWatchRules(this.options.config, c.name)).map((c) => c.name);
  }

  state(cluster: string): WatchState {
    return new WatchState(this.options.redis, this.options.config.queuePrefix, cluster);
  }

  /** Starts each watched cluster's loop; the first scan is claimed at once (unless another replica's is recent). */
  start(): void {
    this.stopped = false;
    for (const cluster of this.clusters()) this.schedule(cluster, 0);
  }

  /** Stops the loops and lets a scan that is posting finish; one still waiting for its doctor posts nothing. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    // A scan waiting for its doctor may wait a minute; past a few seconds it is left (it posts nothing).
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => (bound = setTimeout(resolve, stopWaitMs)))]);
    clearTimeout(bound);
  }

  private schedule(cluster: string, ms: number): void {
    if (this.stopped) return;
    // A little spread, so replicas woken by the same slot's end do not all race for it.
    const timer = setTimeout(() => void this.track(this.tick(cluster)), ms + Math.floor(Math.random() * 50));
    timer.unref?.();
    this.timers.set(cluster, timer);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
    return p;
  }

  private async tick(cluster: string): Promise<void> {
    const rules = doctorWatchRules(this.options.config, cluster)!;
    let wait: number;
    try {
      await this.scanIfDue(cluster);
      wait = Math.max(50, await this.state(cluster).untilClaimable());
    } catch (err) {
      // Redis down: retried every few seconds, but logged once a minute (the outage log says the rest).
      const now = Date.now();
      if (now - (this.warnedAt.get(cluster) ?? 0) >= 60_000) {
        this.warnedAt.set(cluster, now);
        this.options.logger.warn({ err: (err as Error).message, cluster }, 'the scheduled doctor could not scan');
      }
      wait = Math.min(rules.everyMs, retryMs);
    }
    this.schedule(cluster, wait);
  }

  /**
   * Runs this interval's scan of a cluster when no replica has: true when this call ran it. The lock
   * is held until its posts are made, so two replicas never post the same change.
   */
  async scanIfDue(cluster: string): Promise<boolean> {
    const rules = doctorWatchRules(this.options.config, cluster);
    if (!rules) return false;
    const state = this.state(cluster);
    const timeoutMs = doctorTimeoutMs(rules.everyMs);
    if (!(await state.claim(this.owner, rules.everyMs, timeoutMs + lockMarginMs))) return false;
    try {
      const result = await this.options.desk.runDoctor(cluster, watchRequester, { timeoutMs });
      if (this.stopped) return true;
      const { desk, reporter, logger } = this.options;
      await applyScan({ state, rules, reporter, audit: desk.audit, store: desk.store, logger }, result, new Date());
      return true;
    } finally {
      await state.release(this.owner).catch(() => undefined);
    }
  }

  /** Scans that ran to the end on a cluster, across replicas. */
  scans(cluster: string): Promise<number> {
    return this.state(cluster).scans();
  }

  /**
   * "Snooze 24 h" on a symptom the watch announced: only an approver of the cluster, or a person who
   * asked to fix that entry there since the symptom was seen, may; anyone else is told why not (and
   * it is audited). `channel` is where the click came from: the cluster's watch channel only.
   */
  async snooze(cluster: string, entryId: string, user: string, channel: string | undefined): Promise<Answer> {
    const rules: DoctorWatchRules | undefined = doctorWatchRules(this.options.config, cluster);
    const entry = findEntry(entryId);
    if (!rules || !entry) return { ok: false, message: `This button names ${!entry ? 'an entry' : 'a cluster'} the scheduled doctor does not watch; nothing was done.` };
    if (channel !== rules.channel) return { ok: false, message: `This button belongs to the scheduled doctor's posts about \`${cluster}\` in another channel; nothing was done.` };
    const state = this.state(cluster);
    const watched = await state.get(entryId);
    if (!watched?.post) return { ok: false, message: `\`${entryId}\` is not present on \`${cluster}\` any more (or was never announced there), so there is nothing to snooze.` };
    const { desk, policy } = this.options;
    const since = Math.min(Date.parse(watched.since), Date.now() - snoozeMs);
    const checked = await policy.check(user, cluster);
    if (!checked.approver && !(await askedToFix(desk.audit, cluster, entryId, user, since))) {
      await desk.audit.append({ action: 'action-refused', who: user, entryId, cluster, detail: 'snooze of the scheduled doctor' }).catch(() => undefined);
      return { ok: false, message: `Only an approver of \`${cluster}\` or the person who asked to fix \`${entryId}\` there can snooze it; nothing was done.${checked.note ? ` ${checked.note}` : ''}` };
    }
    const done = await state.snooze(entryId, user, snoozeMs, Date.now());
    const name = this.options.nameOf ?? ((u: string) => u);
    if (!done.set) return { ok: false, message: `\`${entryId}\` is already snoozed on \`${cluster}\` by ${name(done.snooze.by)} until ${done.snooze.until.slice(11, 16)} UTC.` };
    await desk.audit.append({ action: 'doctor-snoozed', who: user, entryId, cluster, detail: `until ${done.snooze.until}` }).catch(() => undefined);
    await this.options.reporter.snoozed(cluster, watched.post, { id: entryId, title: watched.title }, user, new Date(done.snooze.until));
    return { ok: true };
  }
}
