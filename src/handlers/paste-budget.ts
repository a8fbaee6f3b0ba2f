import type { SharedTokenBuckets } from '../jobs/token-buckets.js';
import { OutageNoticeBudget } from './outage-notices.js';

/** Which budget a paste ran out of. */
export type PasteBudgetName = 'user' | 'channel';

/** Whether to answer a paste: yes, or no with the budget that is spent and, the first time, what to tell the person. */
export type Admission = { readonly answer: true } | { readonly answer: false; readonly budget: PasteBudgetName; readonly notice?: string };

/** How many paste answers per minute, per person and per channel. */
export interface PasteBudgetLimits {
  readonly perUser: number;
  readonly perChannel: number;
}

/**
 * The short note a person reads when a budget runs out, once per exhaustion. "Within" is exact: a
 * spent bucket gets its next token at most 60/limit seconds later.
 */
export function budgetNotice(budget: PasteBudgetName, perMinute: number): string {
  const within = Math.ceil(60 / perMinute);
  const meanwhile = 'Meanwhile `/platform match <error>` answers only you.';
  return budget === 'user'
    ? `⏸️ I answer at most ${perMinute} pasted errors a minute per person, and you have reached that: I will skip your pastes and answer again within ${within} s. ${meanwhile}`
    : `⏸️ I answer at most ${perMinute} pasted errors a minute in this channel, and it has reached that: I will skip pastes here and answer again within ${within} s. ${meanwhile}`;
}

/**
 * Per-person and per-channel budgets of paste answers, shared by every bot replica (Redis). A paste
 * takes from both or from neither, so a paste refused for the channel costs the person nothing. While
 * Redis does not answer, `whileAway` bounds the notices that say a paste was not taken.
 */
export class PasteBudget {
  constructor(
    private readonly buckets: SharedTokenBuckets,
    readonly limits: PasteBudgetLimits,
    readonly whileAway: OutageNoticeBudget = new OutageNoticeBudget(),
  ) {}

  async admit(user: string, channel: string): Promise<Admission> {
    const draw = await this.buckets.draw([
      { key: `paste-user:${user}`, perMinute: this.limits.perUser },
      { key: `paste-channel:${channel}`, perMinute: this.limits.perChannel },
    ]);
    if (draw.ok) return { answer: true };
    const budget: PasteBudgetName = draw.empty === 0 ? 'user' : 'channel';
    const limit = budget === 'user' ? this.limits.perUser : this.limits.perChannel;
    return draw.firstRefusal ? { answer: false, budget, notice: budgetNotice(budget, limit) } : { answer: false, budget };
  }
}
