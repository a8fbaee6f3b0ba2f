import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { clusterQueueName, parseJobId } from '../names.js';
import { closeQueueEvents, connectRedis } from '../redis.js';
import type { RemedyRequest } from '../requests.js';
import type { LifecycleContext } from './context.js';
import type { WorkerEvents } from './worker-events.js';

/** A bot that stays away longer than this starts from the newest events instead of its cursor. */
const cursorTtlSeconds = 14 * 24 * 3600;

/**
 * How long a replica that does not hold a sealed secret's key leaves its event to the one that does. Every
 * replica reads every event and the first to claim one handles it, but only the replica that queued the run
 * can open what it sealed: another one claiming first told the person the key was lost (it is not). The
 * holder claims at once; another replica claims after this, when the holder has stopped, and says so.
 */
export const sealedGraceMs = 10_000;

/** Whether a progress event carries a secret sealed to a key this replica does not hold. */
function sealedElsewhere(core: LifecycleContext, requestId: string, data: unknown): boolean {
  return typeof data === 'object' && data !== null && typeof (data as { sealed?: unknown }).sealed === 'string' && !core.sealingKeys.has(requestId);
}

/**
 * The bot's reading of every cluster queue's events: from where this deployment last read them (a
 * cursor in Redis), each event once across replicas, and a request's events in order, one at a time.
 */
export class ClusterEventFeed {
  private readonly queueEvents: QueueEvents[] = [];
  private readonly connections: Redis[] = [];
  /** Ends the waits of events left to another replica: a replica that stops claims none of them. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly core: LifecycleContext,
    private readonly events: WorkerEvents,
    /** Looks for lost state; every event is a moment to look. */
    private readonly checkLost: () => Promise<void>,
  ) {}

  /** Subscribes to each cluster's queue events, from the cursor; resolves once they listen. */
  async start(): Promise<void> {
    const { config } = this.core.options;
    for (const c of config.clusters) {
      const queue = clusterQueueName(c.name);
      const connection = connectRedis(config.redisUrl, 'worker');
      this.core.outage.watchConnection(connection);
      this.connections.push(connection);
      const cursorKey = `${config.queuePrefix}:events-cursor:${queue}`;
      const lastEventId = (await this.core.redis.get(cursorKey)) ?? '$';
      const ev = new QueueEvents(queue, { connection, prefix: config.queuePrefix, lastEventId });
      const handle = (eventId: string, jobId: string, fn: (req: RemedyRequest) => Promise<void>, yieldsTo?: (requestId: string) => boolean) => this.onEvent(queue, cursorKey, eventId, jobId, fn, yieldsTo);
      ev.on('completed', ({ jobId, returnvalue }, id) => handle(id, jobId, (req) => this.events.onCompleted(req, jobId, returnvalue)));
      ev.on('failed', ({ jobId, failedReason }, id) => handle(id, jobId, (req) => this.events.onFailed(req, failedReason)));
      ev.on('progress', ({ jobId, data }, id) => handle(id, jobId, (req) => this.events.onProgress(req, data), (requestId) => sealedElsewhere(this.core, requestId, data)));
      this.core.outage.watchErrors(ev, `events of ${queue}`);
      await ev.waitUntilReady();
      this.queueEvents.push(ev);
    }
  }

  async close(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled(this.queueEvents.map(closeQueueEvents));
    await Promise.allSettled(this.connections.map((c) => c.quit()));
  }

  /** Resolves true after `ms`, or false as soon as the feed closes. */
  private waited(ms: number): Promise<boolean> {
    const { signal } = this.stopping;
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(false);
      const timer = setTimeout(() => resolve(true), ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve(false)), { once: true });
    });
  }

  /**
   * Handles one queue event once, even with several bot replicas reading the same stream: the event's
   * stream id is claimed in Redis first. The cursor advances so a restarted bot resumes after it.
   * Events of an attempt that is no longer the request's current one change nothing. An event that
   * `yieldsTo` another replica is claimed here only after sealedGraceMs.
   */
  private onEvent(queue: string, cursorKey: string, eventId: string, jobId: string, handle: (req: RemedyRequest) => Promise<void>, yieldsTo?: (requestId: string) => boolean): void {
    const id = parseJobId(jobId);
    if (!id) return;
    // Not awaited here: a loss it finds is reported through this same request's chain.
    void this.checkLost();
    void this.core.serial(id.requestId, async () => {
      if (yieldsTo?.(id.requestId) && !(await this.waited(sealedGraceMs))) return;
      if (!(await this.core.store.once(`event:${queue}:${eventId}`))) return;
      const req = await this.core.store.get(id.requestId);
      if (req && req.attempt === id.attempt && req.status !== 'lost') await handle(req);
      await this.core.redis.set(cursorKey, eventId, 'EX', cursorTtlSeconds);
    });
  }
}
