import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** How long the epoch outlives the last process that checked it. */
const ttlSeconds = 30 * 24 * 3600;

/**
 * A mark a process writes into Redis when it starts and expects to find there as long as it runs.
 * Redis restarted without persistence, flushed, or failed over to an empty replica has lost it:
 * then everything else the process relied on in Redis (requests, queued jobs, the audit trail) is
 * gone too. Every process under one prefix shares the mark, so they agree on when it was lost.
 */
export class RedisEpoch {
  private mine: string | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private get key(): string {
    return `${this.prefix}:epoch`;
  }

  /** Takes the mark that is there, or writes a new one. */
  async establish(): Promise<void> {
    const fresh = `${new Date().toISOString()} ${randomBytes(6).toString('hex')}`;
    await this.redis.set(this.key, fresh, 'EX', ttlSeconds, 'NX');
    this.mine = (await this.redis.get(this.key)) ?? fresh;
  }

  /**
   * True while the mark this process took is still there (and keeps it from expiring). False once:
   * the mark is gone or another replaced it, i.e. Redis lost its data; the new mark is taken, so the
   * next check holds again.
   */
  async holds(): Promise<boolean> {
    if (this.mine === undefined) {
      await this.establish();
      return true;
    }
    const [[, now]] = (await this.redis.multi().get(this.key).expire(this.key, ttlSeconds).exec()) as [[Error | null, string | null]];
    if (now === this.mine) return true;
    await this.establish();
    return false;
  }
}
