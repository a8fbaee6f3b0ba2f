import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/doctor/index.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { DoctorResults } from '../../src/jobs/doctor-results.js';
import { RequestStore, type RemedyRequest } from '../../src/jobs/requests.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';

const request = (id: string, over: Partial<RemedyRequest> = {}): RemedyRequest => ({
  id,
  entryId: 'build-logs',
  cluster: 'prod-eu',
  requestedBy: 'U0BOB',
  createdAt: '2026-11-21T13:00:00.000Z',
  stageId: 'restart',
  status: 'planning',
  context: '{}',
  params: '{}',
  ...over,
});

const finding = (id: string, state: DoctorReport['findings'][number]['state'], evidence: { object: string; detail: string }[] = []) => ({ id, ref: '7.4', title: `Title of ${id}`, state, evidence });

describe('what `status` reads, as every bot replica sees it in Redis', () => {
  let redis: Redis;
  const prefix = uniquePrefix('status-stores');

  beforeAll(() => {
    redis = new Redis(testRedisUrl);
  });
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });

  it('lists the open remedies from Redis, not one process: a second store on the same prefix sees them; finished ones leave', async () => {
    const mine = new RequestStore(redis, `${prefix}:a`);
    const other = new RequestStore(redis, `${prefix}:a`);
    await mine.create(request('r1'));
    await mine.create(request('r2', { entryId: 'git-sensor-stuck', createdAt: '2026-11-21T13:05:00.000Z' }));
    await mine.create(request('r3', { entryId: 'rollout-invalid-json', createdAt: '2026-11-21T13:10:00.000Z' }));
    await mine.update('r2', { status: 'awaiting-approval' });
    await mine.update('r3', { status: 'denied', deniedBy: 'U0ANN' });
    expect((await other.open()).map((r) => [r.id, r.status])).toEqual([
      ['r1', 'planning'],
      ['r2', 'awaiting-approval'],
    ]);
    // A record gone from Redis (expired, removed) leaves the list too.
    await redis.del(`${prefix}:a:request:r1`);
    expect((await other.open()).map((r) => r.id)).toEqual(['r2']);
    expect(await redis.zrange(`${prefix}:a:open`, 0, -1)).toEqual(['r2']);
  });

  it('keeps when the present status began: a change of status moves it, the same status written again does not', async () => {
    const store = new RequestStore(redis, `${prefix}:b`);
    await store.create(request('r1'));
    expect((await store.get('r1'))?.since).toBe('2026-11-21T13:00:00.000Z');
    await store.update('r1', { status: 'running' });
    const running = (await store.get('r1'))!.since!;
    expect(Date.parse(running)).toBeGreaterThan(Date.parse('2026-11-21T13:00:00.000Z'));
    await new Promise((r) => setTimeout(r, 5));
    await store.update('r1', { status: 'running', outcome: 'cancelled by U0BOB' });
    expect((await store.get('r1'))?.since).toBe(running);
    await store.markWaiting('r1', 'job-1', Date.now() + 60_000);
    const waiting = await store.get('r1');
    expect(waiting?.status).toBe('waiting');
    expect(waiting!.since! > running).toBe(true);
  });

  it('keeps the last doctor per cluster in short: when, who, each symptom present with one redacted evidence line', async () => {
    const results = new DoctorResults(redis, `${prefix}:c`);
    expect(await results.read(['prod-eu'])).toEqual([{ cluster: 'prod-eu', rechecked: [] }]);
    const report: DoctorReport = {
      startedAt: '2026-11-21T14:00:00.000Z',
      tookMs: 1234,
      findings: [
        finding('build-logs', 'present', [
          { object: 'pod/devtroncd/devtron-abc', detail: 'log: lost connection to nats password=hunter22 at 13:58' },
          { object: 'pod/devtron-ci/build-1', detail: 'Running since 13:50' },
        ]),
        finding('git-sensor-stuck', 'absent'),
        finding('gitops-certificate-expired', 'unknown'),
        { ...finding('stale-session-cookie', 'not-observable'), message: 'a browser' },
        { ...finding('sso-login', 'unknown'), reason: 'no-detector' as const },
      ],
    };
    await results.record('prod-eu', 'U0ANN', report, undefined, new Date('2026-11-21T14:00:02.000Z'));
    const [kept] = await results.read(['prod-eu']);
    expect(kept).toEqual({
      cluster: 'prod-eu',
      run: {
        at: '2026-11-21T14:00:02.000Z',
        by: 'U0ANN',
        tookMs: 1234,
        checked: 4,
        unknown: 1,
        present: [{ id: 'build-logs', ref: '7.4', title: 'Title of build-logs', evidence: 'pod/devtroncd/devtron-abc log: lost connection to nats password=[redacted] at 13:58', more: 1 }],
      },
      rechecked: [],
    });
    expect(JSON.stringify(await redis.hgetall(`${prefix}:c:doctor-result:prod-eu`))).not.toContain('hunter22');
    // Another cluster's is its own.
    expect((await results.read(['staging']))[0]).toEqual({ cluster: 'staging', rechecked: [] });
  });

  it('a check of a few entries updates those alone; the next full run replaces everything', async () => {
    const results = new DoctorResults(redis, `${prefix}:d`);
    const full: DoctorReport = { startedAt: '', tookMs: 900, findings: [finding('build-logs', 'present', [{ object: 'pod/a', detail: 'x' }]), finding('git-sensor-stuck', 'absent')] };
    await results.record('prod-eu', 'U0ANN', full, undefined, new Date('2026-11-21T14:00:00.000Z'));
    // After a remedy, its entry is checked alone (cleared); a paste's candidates another time (one present, one unknown).
    await results.record('prod-eu', 'U0BOB', { startedAt: '', tookMs: 50, findings: [finding('build-logs', 'absent')] }, ['build-logs'], new Date('2026-11-21T14:10:00.000Z'));
    await results.record('prod-eu', 'U0CAT', { startedAt: '', tookMs: 50, findings: [finding('git-sensor-stuck', 'present', [{ object: 'pod/git-sensor-0', detail: 'exit status 128' }]), finding('gitops-certificate-expired', 'unknown')] }, ['git-sensor-stuck', 'gitops-certificate-expired'], new Date('2026-11-21T14:20:00.000Z'));
    const [kept] = await results.read(['prod-eu']);
    expect(kept!.run?.at).toBe('2026-11-21T14:00:00.000Z');
    expect(kept!.rechecked.map((r) => [r.id, r.state, r.at, r.by])).toEqual([
      ['git-sensor-stuck', 'present', '2026-11-21T14:20:00.000Z', 'U0CAT'],
      ['build-logs', 'absent', '2026-11-21T14:10:00.000Z', 'U0BOB'],
    ]);
    await results.record('prod-eu', 'schedule', { ...full, findings: [finding('build-logs', 'absent')] }, undefined, new Date('2026-11-21T15:00:00.000Z'));
    const [after] = await results.read(['prod-eu']);
    expect(after).toMatchObject({ run: { at: '2026-11-21T15:00:00.000Z', by: 'schedule', present: [] }, rechecked: [] });
  });
});
