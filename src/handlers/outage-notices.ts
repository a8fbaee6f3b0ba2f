/**
 * The budget of "paste it again" notices while Redis does not answer. The paste budgets live in Redis, so
 * during an outage they cannot be asked; without this, every paste of a flood became a private message of
 * its own (and Slack's rate limits). Kept in this process's memory, which is all there is meanwhile: each
 * replica counts its own.
 */

/** How many notices a minute, and how many people are remembered. */
export interface OutageNoticeLimits {
  /** Notices one person may get a minute; the first of each minute goes whatever the overall count. */
  readonly perUser: number;
  /** Notices beyond each person's first, a minute, for everyone together. */
  readonly extraOverall: number;
  /** People remembered at once: past it, and with none whose minute is over, a new person's notice is dropped. */
  readonly maxUsers: number;
}

/** A few a minute: enough for a person to hear it, too few to flood a channel or Slack's limits. */
export const outageNoticeLimits: OutageNoticeLimits = { perUser: 3, extraOverall: 20, maxUsers: 10_000 };

/** Whether to send the notice; if not, which budget is spent. */
export type OutageNotice = { readonly send: true } | { readonly send: false; readonly budget: 'user' | 'overall' | 'people' };

const minuteMs = 60_000;

interface Window {
  start: number;
  count: number;
}

/**
 * Counts notices in fixed one-minute windows: one per person (from their first notice) and one for the
 * notices past each person's first. A person's first notice of their minute is never refused for the
 * overall count: everyone whose paste was not taken hears it at least once a minute.
 */
export class OutageNoticeBudget {
  /** Oldest window first: a window begun anew is moved to the end, so the expired ones are at the front. */
  private readonly users = new Map<string, Window>();
  private overall: Window = { start: -Infinity, count: 0 };

  constructor(
    readonly limits: OutageNoticeLimits = outageNoticeLimits,
    private readonly now: () => number = Date.now,
  ) {}

  admit(user: string): OutageNotice {
    const now = this.now();
    this.forgetEnded(now);
    const own = this.users.get(user);
    if (!own) {
      if (this.users.size >= this.limits.maxUsers) return { send: false, budget: 'people' };
      this.users.set(user, { start: now, count: 1 });
      return { send: true };
    }
    if (own.count >= this.limits.perUser) return { send: false, budget: 'user' };
    if (now - this.overall.start >= minuteMs) this.overall = { start: now, count: 0 };
    if (this.overall.count >= this.limits.extraOverall) return { send: false, budget: 'overall' };
    this.overall.count++;
    own.count++;
    return { send: true };
  }

  /** People remembered now (for tests of the bound). */
  get remembered(): number {
    return this.users.size;
  }

  private forgetEnded(now: number): void {
    for (const [user, window] of this.users) {
      if (now - window.start < minuteMs) return;
      this.users.delete(user);
    }
  }
}
