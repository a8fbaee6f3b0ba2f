import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { eventually } from '../support/eventually.js';
import { entries, report, watchesOnRealRedis } from '../support/watch.js';

const [a, b, c, d, e] = entries;

describe("the scheduled doctor's changes, on real Redis", () => {
  const onRedis = watchesOnRealRedis();
  const watch = (perHour = 2) => onRedis(perHour);

  it('lists what is present once when it has no record; later posts only what is newly present, at most K an hour, the rest folded into one message', async () => {
    const w = watch(2);
    await w.scan(report([a!]));
    expect(w.reporter.take()).toEqual([`started: ${a}`]);
    await w.scan(report([a!, b!, c!, d!]));
    expect(w.reporter.take()).toEqual([`new: ${b}`, `new: ${c}`, `folded (2/h): ${d}`]);
    await w.scan(report([a!, b!, c!, d!]));
    expect(w.reporter.take()).toEqual([]);
    // Within the hour the budget is spent: a newly present symptom is folded; an hour later it is not.
    await w.scan(report([b!, c!, d!]));
    expect(w.reporter.take()).toEqual(['cleared in ts1: ' + a]);
    await w.scan(report([b!, c!, d!, e!]));
    expect(w.reporter.take()).toEqual([`folded (2/h): ${e}`]);
    await w.scan(report([b!, c!, d!, e!]), 5);
    await w.scan(report([a!, b!, c!, d!, e!]), 61);
    expect(w.reporter.take()).toEqual([`new: ${a}`]);
  });

  it('never clears a symptom it could not judge this time; clears it when absent, in the thread of the message that named it', async () => {
    const w = watch();
    await w.scan(report([]));
    await w.scan(report([a!, b!]));
    w.reporter.take();
    await w.scan(report([b!], [a!]));
    expect(w.reporter.take()).toEqual([]);
    await w.scan(report([b!]));
    expect(w.reporter.take()).toEqual([`cleared in ts2: ${a}`]);
  });

  it('credits a clearing to our remedy of that entry on that cluster that worked since the symptom was seen, and to no other', async () => {
    const w = watch(5);
    const tick = () => new Promise((r) => setTimeout(r, 5));
    await w.scanNow(report([]));
    await w.audit.append({ action: 'outcome', who: 'worker', requestId: 'rold', entryId: a!, cluster: 'prod-eu', detail: 'completed: every step finished' });
    await tick();
    await w.scanNow(report([a!, b!]));
    await tick();
    await w.audit.append({ action: 'requested', who: 'U0ASKED', requestId: 'rfail', entryId: b!, cluster: 'prod-eu' });
    await w.audit.append({ action: 'outcome', who: 'worker', requestId: 'rfail', entryId: b!, cluster: 'prod-eu', detail: 'failed: step 1' });
    await w.audit.append({ action: 'outcome', who: 'worker', requestId: 'rother', entryId: a!, cluster: 'prod-us', detail: 'completed: every step finished' });
    w.reporter.take();
    await w.scanNow(report([]));
    expect(w.reporter.take()).toEqual([`cleared in ts2: ${a}`, `cleared in ts3: ${b}`]);

    await w.scanNow(report([a!]));
    await tick();
    await w.audit.append({ action: 'requested', who: 'U0ASKED', requestId: 'rgood', entryId: a!, cluster: 'prod-eu' });
    await w.audit.append({ action: 'outcome', who: 'worker', requestId: 'rgood', entryId: a!, cluster: 'prod-eu', detail: 'completed: every step finished' });
    w.reporter.take();
    await w.scanNow(report([]));
    // Back within the hour, it was said in its first thread, where its clearing goes too.
    expect(w.reporter.take()).toEqual([`cleared in ts2: ${a} after rgood by U0ASKED`]);
  });

  it('records a symptom newly present while snoozed without a word, and announces it once when the snooze ends while it stays', async () => {
    const w = watch();
    await w.scan(report([]));
    expect(w.reporter.take()).toEqual(['started: ']);
    await w.state.snooze(a!, 'U0APPROVER', 500, Date.now());
    await w.scan(report([a!]));
    await w.scan(report([]));
    await w.scan(report([a!]));
    expect(w.reporter.take()).toEqual([]);
    await eventually(async () => (await w.state.snoozes([a!])).size === 0, { what: 'the snooze to end' });
    await w.scan(report([a!]));
    await w.scan(report([a!]));
    expect(w.reporter.take()).toEqual([`new: ${a}`]);
  });

  it('says once that the doctor could not run, keeps its record meanwhile, and says once in that thread that it runs again', async () => {
    const w = watch();
    await w.scan(report([a!]));
    w.reporter.take();
    expect(await w.scan({ ok: false, message: 'no worker of prod-eu answered within 60 s' })).toBe(false);
    await w.scan({ ok: false, message: 'no worker of prod-eu answered within 60 s' });
    const everyUnknown = report([], catalogue.map((e) => e.id));
    await w.scan(everyUnknown);
    expect(w.reporter.take()).toEqual(['could not run: no worker of prod-eu answered within 60 s']);
    await w.scan(report([a!]));
    expect(w.reporter.take()).toEqual(['runs again in ts2']);
    await w.scan(everyUnknown);
    expect(w.reporter.take()).toEqual(['could not run: no check could read the cluster (error: timeout)']);
  });

  it('tries again at the next scan when a post could not be made, rather than counting it as said', async () => {
    const w = watch();
    w.reporter.failing = true;
    await w.scan(report([a!]));
    expect(await w.state.established()).toBe(false);
    w.reporter.failing = false;
    await w.scan(report([a!]));
    expect(w.reporter.take()).toEqual([`started: ${a}`]);
    w.reporter.failing = true;
    await w.scan(report([a!, b!]));
    w.reporter.failing = false;
    await w.scan(report([a!, b!]));
    expect(w.reporter.take()).toEqual([`new: ${b}`]);
  });
});

describe('who may snooze a symptom as the person who asked to fix it', () => {
  const onRedis = watchesOnRealRedis();

  it('is someone whose request still stands: not one who typed fix and cancelled it, or whose request was denied or expired', async () => {
    const { audit } = onRedis();
    const { askedToFix } = await import('../../src/jobs/watch/attribution.js');
    const since = Date.now() - 60_000;
    const ask = (who: string, requestId: string) => audit.append({ action: 'requested', who, requestId, entryId: 'build-logs', cluster: 'prod-eu' });
    await ask('U0OPEN', 'r1');
    await ask('U0CANCEL', 'r2');
    await audit.append({ action: 'cancelled', who: 'U0CANCEL', requestId: 'r2', entryId: 'build-logs', cluster: 'prod-eu' });
    await ask('U0DENIED', 'r3');
    await audit.append({ action: 'denied', who: 'U0APPROVER', requestId: 'r3', entryId: 'build-logs', cluster: 'prod-eu' });
    await ask('U0TWICE', 'r4');
    await audit.append({ action: 'cancelled', who: 'U0TWICE', requestId: 'r4', entryId: 'build-logs', cluster: 'prod-eu' });
    await ask('U0TWICE', 'r5');
    expect(await askedToFix(audit, 'prod-eu', 'build-logs', 'U0OPEN', since)).toBe(true);
    expect(await askedToFix(audit, 'prod-eu', 'build-logs', 'U0CANCEL', since)).toBe(false);
    expect(await askedToFix(audit, 'prod-eu', 'build-logs', 'U0DENIED', since)).toBe(false);
    expect(await askedToFix(audit, 'prod-eu', 'build-logs', 'U0TWICE', since)).toBe(true);
    expect(await askedToFix(audit, 'prod-eu', 'build-logs', 'U0NOBODY', since)).toBe(false);
    expect(await askedToFix(audit, 'prod-us', 'build-logs', 'U0OPEN', since)).toBe(false);
  });
});
