import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { networkCode } from '../net-errors.js';

/** Anything that reports Redis errors as events: a BullMQ Queue, Worker or QueueEvents. */
interface ErrorSource {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/** What the outage log needs. */
export interface RedisOutageOptions {
  readonly logger: Logger;
  /** Redis's address without its password (safeRedisUrl), for the lines. */
  readonly redis: string;
  /** While an outage lasts, at most one line per this many milliseconds; default one minute. */
  readonly repeatMs?: number;
  readonly now?: () => number;
}

/** An error that says Redis cannot be reached, rather than that it refused a command. */
function isUnreachable(err: Error): boolean {
  const code = networkCode(err);
  if (code && /^E[A-Z]+$/.test(code)) return true;
  return /Connection is closed|max retries per request|Stream isn't writeable/i.test(err.message);
}

/** Connection states in which a connection is not trying to reach Redis: it has, or it was closed on purpose. */
const settled = new Set(['ready', 'wait', 'end']);

/**
 * A Redis outage in the log: one line when it starts, at most one a minute while it lasts, one when
 * it ends, however many connections retry and how often (each retry is an error event: dozens a
 * second across a process's connections). Other errors are logged as they come.
 */
export class RedisOutageLog {
  private since: number | undefined;
  private lastLine = 0;
  private lastCause = '';
  private readonly connections = new Set<Redis>();

  constructor(private readonly options: RedisOutageOptions) {}

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** A connection of this process: its errors count, and the outage ends when every such connection is back. */
  watchConnection(redis: Redis): void {
    this.connections.add(redis);
    redis.on('error', (err: Error) => this.error(err, 'connection'));
    redis.on('ready', () => this.ready());
    redis.on('end', () => this.connections.delete(redis));
  }

  /** A queue, worker or event reader over those connections; `what` names it in other errors. */
  watchErrors(source: ErrorSource, what: string): void {
    source.on('error', (err) => this.error(err, what));
  }

  /** True while Redis cannot be reached. */
  get down(): boolean {
    return this.since !== undefined;
  }

  private error(err: Error, what: string): void {
    const { logger, redis, repeatMs = 60_000 } = this.options;
    if (!isUnreachable(err)) {
      logger.error({ err: err.message, redis }, `${what} error`);
      return;
    }
    const cause = networkCode(err) ?? err.message.slice(0, 200);
    const now = this.now;
    if (this.since === undefined) {
      this.since = now;
      this.lastLine = now;
      this.lastCause = cause;
      logger.warn({ redis, err: cause }, 'Redis unreachable');
      return;
    }
    this.lastCause = cause;
    if (now - this.lastLine >= repeatMs) {
      this.lastLine = now;
      logger.warn({ redis, err: cause, forSeconds: Math.round((now - this.since) / 1000) }, 'Redis still unreachable');
    }
  }

  private ready(): void {
    if (this.since === undefined) return;
    if (![...this.connections].every((c) => settled.has(c.status))) return;
    const seconds = Math.round((this.now - this.since) / 1000);
    this.since = undefined;
    // At the level of the line that began the outage, so whoever saw that one sees this one.
    this.options.logger.warn({ redis: this.options.redis, afterSeconds: seconds, lastError: this.lastCause }, 'Redis reachable again');
  }
}
