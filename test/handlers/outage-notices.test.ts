import { describe, expect, it } from 'vitest';
import { OutageNoticeBudget } from '../../src/handlers/outage-notices.js';

/** The notices while Redis is away, with the clock in the test's hands: per person, overall, and a bounded memory. */
describe('the budget of "paste it again" notices while Redis does not answer', () => {
  let clock = 1_800_000_000_000;
  const now = () => clock;

  it('gives a person their notices again once their minute is over', () => {
    const budget = new OutageNoticeBudget({ perUser: 2, extraOverall: 10, maxUsers: 100 }, now);
    expect([1, 2, 3].map(() => budget.admit('U1').send)).toEqual([true, true, false]);
    clock += 59_999;
    expect(budget.admit('U1')).toEqual({ send: false, budget: 'user' });
    clock += 1;
    expect(budget.admit('U1').send).toBe(true);
  });

  it("never refuses a person's first notice for the overall count", () => {
    const budget = new OutageNoticeBudget({ perUser: 3, extraOverall: 1, maxUsers: 100 }, now);
    expect([budget.admit('U1'), budget.admit('U1'), budget.admit('U1')]).toEqual([{ send: true }, { send: true }, { send: false, budget: 'overall' }]);
    expect(budget.admit('U2').send).toBe(true);
  });

  it('remembers at most maxUsers people, forgetting those whose minute is over first', () => {
    const budget = new OutageNoticeBudget({ perUser: 1, extraOverall: 10, maxUsers: 3 }, now);
    for (const user of ['U1', 'U2', 'U3']) expect(budget.admit(user).send).toBe(true);
    expect(budget.admit('U4')).toEqual({ send: false, budget: 'people' });
    expect(budget.remembered).toBe(3);
    clock += 60_000;
    expect(budget.admit('U4').send).toBe(true);
    expect(budget.remembered).toBe(1);
  });
});
