import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { deadlineJobId, jobRetention, type DeadlineJobData } from '../names.js';
import { closeWorker } from '../redis.js';
import type { RedisOutageLog } from '../redis-outage.js';

/** What runs out: an approval attempt's card, or a question of the guide nobody answered. */
export type DeadlineKind = 'expire' | 'unanswered';

/**
 * The bot's own queue of deadlines: delayed jobs, one per attempt and kind, handled once by whichever
 * bot replica takes them. A deadline that finds its attempt already decided does nothing.
 */
export class Deadlines {
  private queue: Queue | undefined;
  private worker: Worker | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly outage: RedisOutageLog,
  ) {}

  /** Starts handling deadlines as they fall due; `connection` is the worker's own (blocking) connection. */
  start(connection: Redis, handle: (kind: DeadlineKind, data: DeadlineJobData) => Promise<void>): void {
    this.queue = new Queue('bot', { connection: this.redis, prefix: this.prefix });
    this.outage.watchErrors(this.queue, 'bot queue');
    this.worker = new Worker(
      'bot',
      async (job: Job) => {
        const data = job.data as DeadlineJobData;
        // Jobs queued before attempts existed carry a plan hash instead; their attempt is unknown, so they do nothing.
        if (typeof data.attempt !== 'string') return;
        await handle(job.name === 'unanswered' ? 'unanswered' : 'expire', data);
      },
      { connection, prefix: this.prefix, concurrency: 4 },
    );
    this.outage.watchErrors(this.worker, 'bot queue worker');
  }

  /** Schedules a deadline at `at`; scheduling the same attempt's deadline twice adds nothing. */
  async schedule(kind: DeadlineKind, data: DeadlineJobData, at: Date): Promise<void> {
    const delay = Math.max(0, at.getTime() - Date.now());
    await this.queue?.add(kind, data, { jobId: deadlineJobId(kind, data), delay, ...jobRetention });
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.worker && closeWorker(this.worker), this.queue?.close()]);
  }
}
