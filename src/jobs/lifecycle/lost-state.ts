import type { Logger } from 'pino';
import type { Plan } from '../../remedies/plan.js';
import type { RedisEpoch } from '../epoch.js';
import type { RemedyRequest, RequestStore } from '../requests.js';
import type { LifecycleContext } from './context.js';

/** Why a remedy can no longer go on: Redis lost everything, or the job that plans it or continues its wait is gone. */
export type LostCause = 'redis-emptied' | 'continuation-missing' | 'plan-missing';

const lostWhat: Record<LostCause, string> = {
  'redis-emptied': 'Redis, which keeps the queues, lost its data (it restarted without persistence, or was flushed)',
  'continuation-missing': 'the job that continues it after the wait is no longer in the queue (Redis lost it, or someone removed it)',
  'plan-missing': 'the job that plans it is no longer in the queue (the bot stopped before queuing it, Redis lost it, or someone removed it)',
};

/** What the people following a remedy read when its state was lost. */
export function lostMessage(cause: LostCause): string {
  return `This remedy's state was lost: ${lostWhat[cause]}. Nothing more of this remedy will run; steps already done stay done. Plan again to start this stage afresh.`;
}

/** What the watch needs from the lifecycle. */
export interface LostStateOptions {
  readonly store: RequestStore;
  readonly epoch: RedisEpoch;
  readonly logger: Logger;
  /** Between checks when no event comes (`lostStateCheckSeconds`); default 5 s. */
  readonly checkMs?: number;
  /**
   * How long past its due time a wait's continuation is looked for: the bot's due time is a little
   * later than the worker's, and a job stays in its queue (delayed, waiting, active, then completed)
   * throughout, so a few seconds are enough (`lostStateGraceSeconds`); default 10 s.
   */
  readonly graceMs?: number;
  /** Whether the continuation job of a waiting request is still in its queue (in any state). */
  continuationExists(req: RemedyRequest): Promise<boolean>;
  /** Whether the plan job of a planning request's current attempt is still in its queue (in any state). */
  planExists(req: RemedyRequest): Promise<boolean>;
  /** Ends one remedy whose state was lost, and tells its people. */
  lost(req: RemedyRequest, plan: Plan | undefined, cause: LostCause): Promise<void>;
}

/**
 * Notices that Redis lost what open remedies rely on, on every queue event, on every reconnect and
 * every few seconds: the epoch is gone (Redis emptied: the open remedies this process remembers are
 * ended), a wait's continuation job is missing well after it was due (found through Redis's own
 * index of waits, so a restarted bot finds them too), or a remedy planning for longer than the grace has no
 * plan job (the bot stopped between recording the fix and queuing its plan; found through the index of open remedies).
 */
export class LostStateWatch {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;

  constructor(private readonly options: LostStateOptions) {}

  async start(): Promise<void> {
    await this.options.epoch.establish();
    this.started = true;
    this.timer = setInterval(() => void this.check(), this.options.checkMs ?? 5_000);
    this.timer.unref();
  }

  stop(): void {
    this.started = false;
    clearInterval(this.timer);
  }

  /** One check at a time; a call during a check shares it. Never throws: Redis being away is the outage log's to say. */
  check(): Promise<void> {
    if (!this.started) return Promise.resolve();
    this.running ??= this.checkOnce()
      .catch((err: unknown) => this.options.logger.debug({ err: (err as Error).message }, 'lost-state check did not complete'))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async checkOnce(): Promise<void> {
    const { store, epoch, logger } = this.options;
    if (!(await epoch.holds())) {
      const open = store.rememberedOpen();
      logger.warn({ remedies: open.map((o) => o.record.id) }, 'Redis lost its data; ending the open remedies this process knows');
      for (const { record, plan } of open) await this.options.lost(record, plan, 'redis-emptied');
      return;
    }
    for (const id of await store.overdueWaits(Date.now() - (this.options.graceMs ?? 10_000))) {
      const req = await store.get(id);
      if (!req || req.status !== 'waiting' || !req.resumeJob) {
        await store.clearWait(id);
        continue;
      }
      if (await this.options.continuationExists(req)) continue;
      await this.options.lost(req, await store.plan(req.id, req.stageId), 'continuation-missing');
    }
    // A plan job stays in its queue once added (waiting, active, then completed, kept for days), so one missing after
    // the grace was never queued or was removed: nothing will ever plan the remedy, which holds its entry meanwhile.
    const settled = Date.now() - (this.options.graceMs ?? 10_000);
    for (const req of await store.open()) {
      if (req.status !== 'planning' || !req.attempt || Date.parse(req.since ?? req.createdAt) > settled) continue;
      if (await this.options.planExists(req)) continue;
      // Read again: the plan may have completed, and the remedy moved on, since the index was read.
      const now = await store.get(req.id);
      if (now?.status !== 'planning' || now.attempt !== req.attempt) continue;
      await this.options.lost(now, undefined, 'plan-missing');
    }
  }
}

/**
 * Ends a remedy whose state Redis lost: written back as `lost` (so cancel, Plan again and the audit
 * trail agree), and its thread told that nothing more will run. Once, across replicas.
 */
export async function endLostRemedy(core: LifecycleContext, req: RemedyRequest, plan: Plan | undefined, cause: LostCause): Promise<void> {
  const { store, options } = core;
  if (!(await store.once(`lost:${req.id}:${req.stageId}:${req.attempt ?? ''}`))) return;
  const message = lostMessage(cause);
  const ended = { ...req, status: 'lost' as const, outcome: message };
  await store.restore(ended, plan);
  await core.release(req, plan);
  core.sealingKeys.delete(req.id);
  await core.record('lost', 'bot', req, { 'redis-emptied': 'Redis lost its data', 'continuation-missing': 'the continuation after the wait was missing', 'plan-missing': 'the plan job was missing' }[cause]);
  options.metrics?.remedyEnded('lost');
  await core.serial(req.id, () => options.reporter.failed(ended, message, plan));
}
