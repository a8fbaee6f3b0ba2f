import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { SharedTokenBuckets } from '../../src/jobs/token-buckets.js';
import { budgetNotice, PasteBudget, type Admission } from '../../src/handlers/paste-budget.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';

/**
 * Paste budgets on a real Redis, with the clock in the test's hands: a bucket per person and per
 * channel, drawn from together, refilled continuously, shared by every bot replica.
 */
describe('paste budgets (token buckets in Redis, sliding refill)', () => {
  const prefix = uniquePrefix('paste-budget');
  let a: Redis;
  let b: Redis;
  let clock = 1_800_000_000_000;
  const now = () => clock;
  const budget = (redis: Redis, perUser = 5, perChannel = 20) => new PasteBudget(new SharedTokenBuckets(redis, prefix, now), { perUser, perChannel });
  const answers = (list: Admission[]) => list.filter((x) => x.answer).length;
  async function admitMany(b: PasteBudget, n: number, user: string, channel: string): Promise<Admission[]> {
    const out: Admission[] = [];
    for (let i = 0; i < n; i++) out.push(await b.admit(user, channel));
    return out;
  }

  beforeAll(() => {
    a = new Redis(testRedisUrl);
    b = new Redis(testRedisUrl);
  });
  afterAll(async () => {
    await deletePrefix(a, prefix);
    a.disconnect();
    b.disconnect();
  });

  it('answers five pastes of a burst, tells the person once, then stays silent', async () => {
    const got = await admitMany(budget(a), 300, 'U1', 'C1');
    expect(answers(got)).toBe(5);
    expect(got[5]).toEqual({ answer: false, budget: 'user', notice: budgetNotice('user', 5) });
    expect(got.slice(6).every((x) => !x.answer && x.notice === undefined)).toBe(true);
    expect(budgetNotice('user', 5)).toBe(
      '⏸️ I answer at most 5 pasted errors a minute per person, and you have reached that: I will skip your pastes and answer again within 12 s. Meanwhile `/platform match <error>` answers only you.',
    );
  });

  it('refills continuously: one more answer every 12 s, with no second notice until the bucket has been full again', async () => {
    const pb = budget(a);
    await admitMany(pb, 6, 'U2', 'C2');
    clock += 11_900;
    expect(await pb.admit('U2', 'C2')).toEqual({ answer: false, budget: 'user' });
    clock += 100; // 12 s after the burst: one token back
    expect(await pb.admit('U2', 'C2')).toEqual({ answer: true });
    expect(await pb.admit('U2', 'C2')).toEqual({ answer: false, budget: 'user' });
    clock += 30_000; // two and a half tokens back: two answers, then silence, still no new notice
    expect(answers(await admitMany(pb, 4, 'U2', 'C2'))).toBe(2);
    expect(await pb.admit('U2', 'C2')).toEqual({ answer: false, budget: 'user' });
    clock += 61_000; // quiet for a minute: full again, and the next exhaustion is told once more
    const again = await admitMany(pb, 7, 'U2', 'C2');
    expect(answers(again)).toBe(5);
    expect(again[5]).toMatchObject({ answer: false, budget: 'user', notice: budgetNotice('user', 5) });
    expect(again[6]).toEqual({ answer: false, budget: 'user' });
  });

  it("limits a channel across people; a paste refused for the channel costs the person nothing", async () => {
    const pb = budget(a, 5, 8);
    expect(answers(await admitMany(pb, 5, 'U3', 'C3'))).toBe(5);
    const colleague = await admitMany(pb, 5, 'U4', 'C3');
    expect(answers(colleague)).toBe(3);
    expect(colleague[3]).toEqual({ answer: false, budget: 'channel', notice: budgetNotice('channel', 8) });
    expect(colleague[4]).toEqual({ answer: false, budget: 'channel' });
    // The colleague's own budget still holds two answers, usable in another channel.
    expect(answers(await admitMany(pb, 3, 'U4', 'C4'))).toBe(2);
    expect(budgetNotice('channel', 8)).toBe(
      '⏸️ I answer at most 8 pasted errors a minute in this channel, and it has reached that: I will skip pastes here and answer again within 8 s. Meanwhile `/platform match <error>` answers only you.',
    );
  });

  it('is shared by bot replicas: two connections draw from the same buckets, and the notice is sent once', async () => {
    const one = budget(a);
    const two = budget(b);
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two).admit('U5', 'C5')));
    expect(answers(got)).toBe(5);
    expect(got.filter((x) => !x.answer && x.notice !== undefined)).toHaveLength(1);
  });

  it('keeps nothing in Redis longer than a full refill', async () => {
    await budget(a).admit('U6', 'C6');
    const ttl = await a.pttl(`${prefix}:budget:paste-user:U6`);
    expect(ttl).toBeGreaterThan(0);
    // One token spent of five a minute: full again 12 s later, plus a second's margin.
    expect(ttl).toBeLessThanOrEqual(13_000);
  });
});
