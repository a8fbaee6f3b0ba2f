/**
 * The order in which the bot's writes to Slack go out. Two lanes: `remedy` (approval cards, progress,
 * results, refusals, answers to a person's command) and `paste` (answers to pasted errors). A paste
 * write goes only when no remedy write waits; paste writes are paced per key (Slack allows about one
 * message per second per channel) so they never spend the burst Slack allows a channel, which is left
 * to remedies; when Slack answers 429 the paste lane backs off first and longest; and a paste write
 * that waited longer than its bound is dropped rather than sent minutes late.
 */

/** Which class a write belongs to; `remedy` always goes first. */
export type Lane = 'remedy' | 'paste';

/** How the scheduler paces and bounds writes. */
export interface WriteSchedulerOptions {
  /** A paste write still waiting after this long is dropped (its promise resolves undefined). */
  readonly pasteMaxAgeMs: number;
  /** Least time between two paste writes of the same key (Slack: about 1 message per second per channel). */
  readonly pasteIntervalMs: number;
  /** Writes in flight at once, both lanes together: small, so that order still means something. */
  readonly concurrency: number;
  /** Times a write refused with 429 is tried again (each after Slack's Retry-After) before it fails. */
  readonly rateLimitRetries: number;
  readonly now?: () => number;
  /** Slack answered 429 to a write of this lane. */
  readonly onRateLimited?: (lane: Lane) => void;
  /** A paste answer waited too long and was dropped (a follow-up of one that was sent is not counted). */
  readonly onStale?: () => void;
}

interface Item {
  readonly lane: Lane;
  readonly key: string;
  readonly call: () => Promise<unknown>;
  readonly enqueuedAt: number;
  /** A paste write that changes an answer already sent (its cluster evidence): dropped like the others, but no answer is lost. */
  readonly followUp?: boolean;
  attempts: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: unknown) => void;
}

/** Slack's "slow down": the Web API client's rate-limited error, with Retry-After in seconds. */
export function retryAfterOf(err: unknown): number | undefined {
  const e = err as { code?: unknown; retryAfter?: unknown } | undefined;
  return e?.code === 'slack_webapi_rate_limited_error' && typeof e.retryAfter === 'number' ? e.retryAfter : undefined;
}

/** The two-lane scheduler; see the module comment. `key` is what Slack rate-limits by (method and channel). */
export class WriteScheduler {
  private readonly queues: Record<Lane, Item[]> = { remedy: [], paste: [] };
  private inFlight = 0;
  /** Slack's Retry-After per key: no write of that key goes before. */
  private readonly holdUntil = new Map<string, number>();
  /** Paste pacing and the paste lane's longer back-off, per key. */
  private readonly pasteNotBefore = new Map<string, number>();
  /** After any 429, pastes everywhere wait: Slack is asking the bot to slow down. */
  private pastesHeldUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;
  private drained: (() => void) | undefined;
  private readonly now: () => number;

  constructor(private readonly options: WriteSchedulerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Queues a remedy write; it is never dropped, and fails only as the call itself fails. */
  remedy<T>(key: string, call: () => Promise<T>): Promise<T> {
    return this.enqueue('remedy', key, call) as Promise<T>;
  }

  /** Queues a paste write; resolves undefined if it waited too long, or the bot is stopping, and was dropped. */
  paste<T>(key: string, call: () => Promise<T>, followUp = false): Promise<T | undefined> {
    if (this.closing) return Promise.resolve(undefined);
    return this.enqueue('paste', key, call, followUp) as Promise<T | undefined>;
  }

  /** Writes waiting, by lane (for tests and the benchmark). */
  waiting(): Record<Lane, number> {
    return { remedy: this.queues.remedy.length, paste: this.queues.paste.length };
  }

  /** Drops the paste writes still waiting and resolves once every remedy write is done. */
  close(): Promise<void> {
    this.closing = true;
    for (const item of this.queues.paste.splice(0)) item.resolve(undefined);
    return new Promise((resolve) => {
      this.drained = resolve;
      this.settle();
    });
  }

  private enqueue(lane: Lane, key: string, call: () => Promise<unknown>, followUp = false): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queues[lane].push({ lane, key, call, enqueuedAt: this.now(), attempts: 0, resolve, reject, ...(followUp ? { followUp } : {}) });
      this.pump();
    });
  }

  /** When a write of this key and lane may go. */
  private readyAt(item: Item): number {
    const held = this.holdUntil.get(item.key) ?? 0;
    return item.lane === 'remedy' ? held : Math.max(held, this.pastesHeldUntil, this.pasteNotBefore.get(item.key) ?? 0);
  }

  private pump(): void {
    const now = this.now();
    this.dropStale(now);
    while (this.inFlight < this.options.concurrency) {
      const item = this.next(now);
      if (!item) break;
      this.start(item, now);
    }
    this.arm(now);
    this.settle();
  }

  /** The first remedy write that may go; a paste write only when no remedy write waits at all. */
  private next(now: number): Item | undefined {
    const remedy = this.takeFirst(this.queues.remedy, now);
    if (remedy || this.queues.remedy.length > 0) return remedy;
    return this.takeFirst(this.queues.paste, now);
  }

  private takeFirst(queue: Item[], now: number): Item | undefined {
    const i = queue.findIndex((item) => this.readyAt(item) <= now);
    return i < 0 ? undefined : queue.splice(i, 1)[0];
  }

  private dropStale(now: number): void {
    const queue = this.queues.paste;
    for (let i = queue.length - 1; i >= 0; i--) {
      if (now - queue[i]!.enqueuedAt < this.options.pasteMaxAgeMs) continue;
      const dropped = queue.splice(i, 1)[0]!;
      dropped.resolve(undefined);
      if (!dropped.followUp) this.options.onStale?.();
    }
  }

  private start(item: Item, now: number): void {
    this.inFlight++;
    if (item.lane === 'paste') this.pasteNotBefore.set(item.key, now + this.options.pasteIntervalMs);
    item
      .call()
      .then(item.resolve, (err: unknown) => this.failed(item, err))
      .finally(() => {
        this.inFlight--;
        this.pump();
      });
  }

  private failed(item: Item, err: unknown): void {
    const retryAfter = retryAfterOf(err);
    if (retryAfter === undefined) return item.reject(err);
    const now = this.now();
    const wait = Math.max(1, retryAfter) * 1000;
    this.options.onRateLimited?.(item.lane);
    this.holdUntil.set(item.key, Math.max(this.holdUntil.get(item.key) ?? 0, now + wait));
    // The paste lane backs off first and longest: remedies get the window when it reopens.
    this.pastesHeldUntil = Math.max(this.pastesHeldUntil, now + wait);
    this.pasteNotBefore.set(item.key, Math.max(this.pasteNotBefore.get(item.key) ?? 0, now + 2 * wait + this.options.pasteIntervalMs));
    item.attempts++;
    if (item.attempts > this.options.rateLimitRetries) return item.reject(err);
    // Back at the head of its lane, so a thread's messages keep their order.
    this.queues[item.lane].unshift(item);
  }

  /** Sets one timer for the earliest moment a waiting write may go, or a paste write becomes stale. */
  private arm(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.inFlight >= this.options.concurrency) return;
    let wake = Infinity;
    for (const item of this.queues.remedy) wake = Math.min(wake, this.readyAt(item));
    // While a remedy write waits, paste writes cannot go: only their staleness can wake the scheduler.
    const pastesMayGo = this.queues.remedy.length === 0;
    for (const item of this.queues.paste) wake = Math.min(wake, pastesMayGo ? this.readyAt(item) : Infinity, item.enqueuedAt + this.options.pasteMaxAgeMs);
    if (wake === Infinity) return;
    this.timer = setTimeout(() => this.pump(), Math.max(1, wake - now));
    this.timer.unref();
  }

  private settle(): void {
    if (this.drained && this.queues.remedy.length === 0 && this.inFlight === 0) {
      if (this.timer) clearTimeout(this.timer);
      this.drained();
      this.drained = undefined;
    }
  }
}
