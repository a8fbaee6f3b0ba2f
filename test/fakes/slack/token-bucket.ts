/**
 * Slack limits chat.postMessage to about one message per second per channel, tolerating short bursts.
 * A token bucket per key models exactly that: `burst` messages at once, then `perSecond` refill.
 */

/** How the fake rate-limits one method; `false` where a test wants no limit at all. */
export interface RateLimit {
  /** Messages a channel may receive at once before being limited. */
  burst: number;
  /** Tokens returned to each channel's bucket per second. */
  perSecond: number;
}

/** Outcome of asking for one token: go ahead, or wait this many whole seconds (Retry-After). */
export type TakeResult = { ok: true } | { ok: false; retryAfterSec: number };

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly limit: RateLimit) {}

  take(key: string, nowMs: number): TakeResult {
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, at: nowMs };
    const refilled = ((nowMs - bucket.at) / 1000) * this.limit.perSecond;
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + Math.max(0, refilled));
    bucket.at = nowMs;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    // Retry-After is whole seconds in Slack's answers, never 0, or clients would spin.
    const waitSec = (1 - bucket.tokens) / this.limit.perSecond;
    return { ok: false, retryAfterSec: Math.max(1, Math.ceil(waitSec)) };
  }
}
