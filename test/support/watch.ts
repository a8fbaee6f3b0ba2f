import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { pino } from 'pino';
import { catalogue } from '../../src/catalogue/index.js';
import type { DoctorReport, Finding } from '../../src/doctor/scan.js';
import { AuditTrail } from '../../src/jobs/audit.js';
import { RequestStore } from '../../src/jobs/requests.js';
import type { ClearedBy, WatchReporter } from '../../src/jobs/watch/reporter.js';
import { WatchState, type WatchPost } from '../../src/jobs/watch/state.js';
import { applyScan, type ScanInput } from '../../src/jobs/watch/watch-scan.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { testRedisUrl, uniquePrefix } from './test-redis.js';

/** What the watch said, in order: a reporter that keeps each call, and answers a new message with its ts. */
export class RecordingReporter implements WatchReporter {
  said: string[] = [];
  private n = 0;
  /** When true, posting fails (Slack down, the bot not in the channel). */
  failing = false;
  private post(line: string): Promise<string | undefined> {
    if (this.failing) return Promise.resolve(undefined);
    this.said.push(line);
    return Promise.resolve(`ts${++this.n}`);
  }
  private say(line: string): Promise<void> {
    this.said.push(line);
    return Promise.resolve();
  }
  started(_c: string, _ch: string, present: readonly Finding[]) {
    return this.post(`started: ${present.map((f) => f.id).join(',')}`);
  }
  appeared(_c: string, _ch: string, f: Finding) {
    return this.post(`new: ${f.id}`);
  }
  folded(_c: string, _ch: string, fs: readonly Finding[], perHour: number) {
    return this.post(`folded (${perHour}/h): ${fs.map((f) => f.id).join(',')}`);
  }
  cleared(_c: string, post: WatchPost, entry: { id: string }, _at: Date, by?: ClearedBy) {
    return this.say(`cleared in ${post.ts}: ${entry.id}${by ? ` after ${by.requestId} by ${by.requestedBy}` : ''}`);
  }
  returned(_c: string, post: WatchPost, f: Finding, at: Date) {
    return this.say(`again in ${post.ts} at ${at.toISOString().slice(11, 16)}: ${f.id} (${f.evidence.map((e) => e.object).join(', ')})`);
  }
  restless(_c: string, post: WatchPost, entry: { id: string }, present: Finding | undefined, _at: Date, quietMs: number) {
    return this.say(`keeps changing in ${post.ts}: ${entry.id} ${present ? 'present' : 'cleared'}, quiet for ${quietMs / 60_000} min`);
  }
  settled(_c: string, post: WatchPost, entry: { id: string }, present: boolean, since: Date, unsaid: number) {
    return this.say(`settled in ${post.ts}: ${entry.id} ${present ? 'present' : 'cleared'} since ${since.toISOString().slice(11, 16)}, ${unsaid} unsaid`);
  }
  unavailable(_c: string, _ch: string, message: string) {
    return this.post(`could not run: ${message}`);
  }
  recovered(_c: string, post: WatchPost | undefined) {
    return this.say(`runs again in ${post?.ts}`);
  }
  snoozed() {
    return Promise.resolve();
  }
  take(): string[] {
    return this.said.splice(0);
  }
}

export const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));
/** Entries whose detector can say present or absent, in catalogue order. */
export const entries = catalogue.filter((e) => e.detector && e.detector.kind !== 'notObservable').map((e) => e.id);

/** A report with the given entries present (and `unknown` ones unknown); every other entry absent. */
export function report(present: readonly string[], unknown: readonly string[] = []): ScanInput {
  const findings = catalogue.map((e): Finding => {
    const state = present.includes(e.id) ? 'present' : unknown.includes(e.id) ? 'unknown' : 'absent';
    return { id: e.id, ref: e.ref, title: e.title, state, evidence: state === 'present' ? [{ object: `pod/devtroncd/${e.id}`, detail: 'seen' }] : [], ...(state === 'unknown' ? { reason: 'error' as const, message: 'timeout' } : {}) };
  });
  const r: DoctorReport = { findings, startedAt: new Date().toISOString(), tookMs: 5 };
  return { ok: true, report: r };
}

/**
 * A watch of `prod-eu` every 10 minutes on real Redis under a fresh prefix (pushed to `prefixes` for
 * cleanup), with a recording reporter and a fake clock that starts on 2025-01-06 at 10:00 UTC.
 */
export function watchOn(redis: Redis, prefixes: string[], perHour = 2) {
  const prefix = uniquePrefix('watch');
  prefixes.push(prefix);
  const reporter = new RecordingReporter();
  const state = new WatchState(redis, prefix, 'prod-eu');
  const audit = new AuditTrail(redis, prefix, { retentionDays: 1, maxRecords: 1000 });
  const parts = { state, reporter, audit, store: new RequestStore(redis, prefix), logger: silent, rules: { channel: 'C0WATCH', everyMs: 600_000, newPostsPerHour: perHour } };
  let now = Date.UTC(2025, 0, 6, 10, 0, 0);
  /** A scan `minutes` after the last one, on the test's clock. */
  const scan = (input: ScanInput, minutes = 10) => applyScan(parts, input, new Date((now += minutes * 60_000)));
  /** A scan now, on the clock the audit trail records with. */
  const scanNow = (input: ScanInput) => applyScan(parts, input, new Date());
  return { reporter, state, audit, scan, scanNow, prefix, redis };
}

/**
 * Watches on real Redis for one describe block: the connection opens before its tests, and every
 * prefix a watch used is deleted after them. `perHour` is the budget of new posts.
 */
export function watchesOnRealRedis(): (perHour?: number) => ReturnType<typeof watchOn> {
  let redis: Redis;
  const prefixes: string[] = [];
  beforeAll(() => {
    redis = new Redis(testRedisUrl);
  });
  afterAll(async () => {
    for (const p of prefixes) await deletePrefix(redis, p);
    redis.disconnect();
  });
  return (perHour = 2) => watchOn(redis, prefixes, perHour);
}
