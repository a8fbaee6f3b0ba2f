import { describe, expect, it } from 'vitest';
import { entries, report, watchesOnRealRedis } from '../support/watch.js';

const [a, b] = entries as [string, string];

describe('the scheduled doctor on a symptom that comes and goes, on real Redis', () => {
  const onRedis = watchesOnRealRedis();
  const watch = (perHour = 5) => onRedis(perHour);

  it('says a symptom back within the hour after its clearing in its thread, with its evidence, not in a new post; after the hour it is a new post', async () => {
    const w = watch();
    await w.scan(report([]));
    await w.scan(report([a])); // 10:20
    await w.scan(report([]));
    expect(w.reporter.take()).toEqual(['started: ', `new: ${a}`, `cleared in ts2: ${a}`]);
    await w.scan(report([a])); // 10:40
    expect(w.reporter.take()).toEqual([`again in ts2 at 10:40: ${a} (pod/devtroncd/${a})`]);
    // Its second clearing and return go to the same thread too.
    await w.scan(report([]), 30);
    await w.scan(report([a]), 30); // 11:40
    expect(w.reporter.take()).toEqual([`cleared in ts2: ${a}`, `again in ts2 at 11:40: ${a} (pod/devtroncd/${a})`]);

    // Cleared at 11:50; absent for an hour: the record goes, and a return is a new post.
    await w.scan(report([]));
    expect(w.reporter.take()).toEqual([`cleared in ts2: ${a}`]);
    expect((await w.state.recentlyCleared()).has(a)).toBe(true);
    const ttl = await w.redis.pttl(`${w.prefix}:watch:prod-eu:cleared`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_600_000 + 2 * 600_000);
    for (let i = 0; i < 6; i++) await w.scan(report([])); // 12:50
    expect((await w.state.recentlyCleared()).has(a)).toBe(false);
    await w.scan(report([a]));
    expect(w.reporter.take()).toEqual([`new: ${a}`]);
  });

  it('says at most 3 changes of one symptom an hour in its thread, then once that it keeps changing, then nothing until it stays the same for an hour', async () => {
    const w = watch();
    await w.scan(report([]));
    await w.scan(report([a, b])); // 10:20
    w.reporter.take();
    // Flapping every scan for two hours: cleared, back, cleared, then the fourth change says it keeps changing.
    for (let i = 0; i < 12; i++) await w.scan(report(i % 2 === 0 ? [b] : [a, b]));
    expect(w.reporter.take()).toEqual([`cleared in ts2: ${a}`, `again in ts2 at 10:40: ${a} (pod/devtroncd/${a})`, `cleared in ts2: ${a}`, `keeps changing in ts2: ${a} present, quiet for 60 min`]);
    // 12:20 it came back, and stays: an hour later, once, that it has been present since then.
    for (let i = 0; i < 5; i++) await w.scan(report([a, b]));
    expect(w.reporter.take()).toEqual([]);
    await w.scan(report([a, b])); // 13:20
    expect(w.reporter.take()).toEqual([`settled in ts2: ${a} present since 12:20, 8 unsaid`]);
    await w.scan(report([a, b]));
    // Its changes are said again, with a fresh budget; the other symptom was never spoken of.
    await w.scan(report([b]));
    expect(w.reporter.take()).toEqual([`cleared in ts2: ${a}`]);
  });

  it('says once when a symptom that kept changing has stayed cleared for an hour, and a later return is a new post', async () => {
    const w = watch();
    await w.scan(report([]));
    await w.scan(report([a])); // 10:20
    for (let i = 0; i < 5; i++) await w.scan(report(i % 2 === 0 ? [] : [a])); // last: 11:10, cleared
    expect(w.reporter.take()).toEqual(['started: ', `new: ${a}`, `cleared in ts2: ${a}`, `again in ts2 at 10:40: ${a} (pod/devtroncd/${a})`, `cleared in ts2: ${a}`, `keeps changing in ts2: ${a} present, quiet for 60 min`]);
    for (let i = 0; i < 6; i++) await w.scan(report([])); // 12:10
    expect(w.reporter.take()).toEqual([`settled in ts2: ${a} cleared since 11:10, 1 unsaid`]);
    await w.scan(report([a]));
    expect(w.reporter.take()).toEqual([`new: ${a}`]);
  });
});
