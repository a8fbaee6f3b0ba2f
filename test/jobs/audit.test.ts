/**
 * The audit trail's bounds, on a real Redis: the trail goes a retention after its newest record, and it never
 * holds more than its most records. A flood of audited actions (a bystander's clicks, refused requests) would
 * otherwise grow the stream for the whole retention, in the same Redis the queues need. When the cap drops records
 * before their retention, the operator is told how many and from when the trail now starts: nothing goes unsaid.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditTrail } from '../../src/jobs/audit.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';

const redis = new Redis(testRedisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
afterAll(() => redis.quit());

describe('the audit trail', () => {
  it('keeps its most records, dropping the oldest, and says how many went before their retention', async () => {
    const prefix = uniquePrefix('audit-cap');
    const told: { dropped: number; oldestKept: string }[] = [];
    const audit = new AuditTrail(redis, prefix, { retentionDays: 90, maxRecords: 50, checkEveryMs: 0, onCapped: (t) => told.push(t) });
    for (let i = 0; i < 300; i++) await audit.append({ who: 'U0BYSTANDER', action: 'action-refused', detail: `click ${i}` });
    expect(await redis.xlen(`${prefix}:audit`)).toBe(50);
    const newest = await audit.latest(1);
    expect(newest[0]?.detail).toBe('click 299');
    // The records kept are the newest 50: the first kept is click 250.
    const all = await audit.latest(100);
    expect(all.at(-1)?.detail).toBe('click 250');
    expect(told.reduce((n, t) => n + t.dropped, 0)).toBe(250);
    expect(told.at(-1)?.oldestKept).toBe(all.at(-1)?.at);
    await redis.del(`${prefix}:audit`);
  });

  it('keeps the trail a retention past its newest record, and counts no record as capped while under the cap', async () => {
    const prefix = uniquePrefix('audit-age');
    const told: unknown[] = [];
    const key = `${prefix}:audit`;
    const audit = new AuditTrail(redis, prefix, { retentionDays: 90, maxRecords: 50, checkEveryMs: 0, onCapped: (t) => told.push(t) });
    for (let i = 0; i < 10; i++) await audit.append({ who: 'U2', action: 'requested' });
    // With no record for a whole retention, every record is past it: the stream itself goes then.
    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(90 * 86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(90 * 86_400);
    expect(await redis.xlen(key)).toBe(10);
    expect(told).toEqual([]);
    await redis.del(key);
  });
});
