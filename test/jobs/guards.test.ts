import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { RemedyGuards } from '../../src/jobs/lifecycle/guards.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';

const minute = 60_000;

describe('the per-person fix limit, on real Redis', () => {
  let redis: Redis;
  const prefix = uniquePrefix('guards');
  let now = Date.UTC(2025, 0, 6, 10, 59, 0);
  const guards = () => new RemedyGuards(redis, prefix, { now: () => now });

  beforeAll(() => {
    redis = new Redis(testRedisUrl);
  });
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });

  it('counts over the hour before each request, not the clock hour: a burst at 10:59 still counts at 11:00', async () => {
    const g = guards();
    now = Date.UTC(2025, 0, 6, 10, 59, 0);
    for (let i = 0; i < 3; i++) expect(await g.reserve('U0SLIDE', 3, `t${i}`)).toBe(`t${i}`);
    expect(await g.reserve('U0SLIDE', 3, 't3')).toBeUndefined();
    now += 2 * minute; // 11:01, a new clock hour
    expect(await g.reserve('U0SLIDE', 3, 't4')).toBeUndefined();
    now += 57 * minute; // 11:58, still within the hour of the burst
    expect(await g.reserve('U0SLIDE', 3, 't5')).toBeUndefined();
    now += 1 * minute + 1; // just over an hour after the burst
    expect(await g.reserve('U0SLIDE', 3, 't6')).toBe('t6');
  });

  it('does not count a request taken back (refused after it was counted)', async () => {
    const g = guards();
    expect(await g.reserve('U0BACK', 1, 'a')).toBe('a');
    await g.unreserve('U0BACK', 'a');
    expect(await g.reserve('U0BACK', 1, 'b')).toBe('b');
    expect(await g.reserve('U0BACK', 1, 'c')).toBeUndefined();
  });

  it('lets exactly the limit through when fifty requests arrive at once', async () => {
    const g = guards();
    const got = await Promise.all(Array.from({ length: 50 }, (_, i) => g.reserve('U0BURST', 10, `b${i}`)));
    expect(got.filter(Boolean)).toHaveLength(10);
  });

  it('admits a new fix in one step: at the limit or on a busy entry it takes neither the count nor the entry', async () => {
    const g = guards();
    const holder = (requestId: string, requestedBy: string) => ({ requestId, entryId: 'build-logs', requestedBy });
    expect(await g.admit('U0ADMIT', 2, 'sim', holder('r1', 'U0ADMIT'), 60)).toEqual({ ok: true });
    // The entry is r1's: another person's fix is refused as busy and is not counted against them.
    expect(await g.admit('U0OTHER', 1, 'sim', holder('r2', 'U0OTHER'), 60)).toEqual({ ok: false, refused: 'busy', holder: holder('r1', 'U0ADMIT') });
    expect(await g.reserve('U0OTHER', 1, 'x')).toBe('x');
    // At the limit, the limit is the refusal, and the entry is not taken.
    await g.releaseEntry('sim', 'build-logs', 'r1');
    expect(await g.reserve('U0ADMIT', 2, 'y')).toBe('y');
    expect(await g.admit('U0ADMIT', 2, 'sim', holder('r3', 'U0ADMIT'), 60)).toEqual({ ok: false, refused: 'limit' });
    expect(await g.claimEntry('sim', holder('r4', 'U0FREE'), 60)).toBeUndefined();
  });

  it('admits exactly one of fifty fixes of one entry asked at once', async () => {
    const g = guards();
    const got = await Promise.all(Array.from({ length: 50 }, (_, i) => g.admit(`U0RACE${i}`, 10, 'sim', { requestId: `q${i}`, entryId: 'sso-login', requestedBy: `U0RACE${i}` }, 60)));
    expect(got.filter((a) => a.ok)).toHaveLength(1);
  });

  it("frees only what the remedy itself holds: another remedy's entry stays, its own goes", async () => {
    const g = guards();
    const mine = { requestId: 'm1', entryId: 'git-sensor-stuck', requestedBy: 'U0MINE' };
    const theirs = { requestId: 't1', entryId: 'git-sensor-stuck', requestedBy: 'U0THEIRS' };
    expect(await g.claimEntry('sim', theirs, 60)).toBeUndefined();
    await g.releaseAll(undefined, 'sim', 'git-sensor-stuck', 'm1');
    expect(await g.claimEntry('sim', mine, 60)).toEqual(theirs);
    await g.releaseEntry('sim', 'git-sensor-stuck', 't1');
    expect(await g.claimEntry('sim', mine, 60)).toBeUndefined();
    await g.releaseAll(undefined, 'sim', 'git-sensor-stuck', 'm1');
    expect(await g.claimEntry('sim', theirs, 60)).toBeUndefined();
  });
});
