import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Verification } from '../../src/doctor/verify.js';
import type { EndedRun } from '../../src/jobs/lifecycle/reporter.js';
import { auditDetail, checkedRun } from '../../src/jobs/lifecycle/verification.js';

/** A logger whose lines the test reads. */
function recording() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (c, _e, cb) => (lines.push(c.toString()), cb()) }));
  return { logger, lines };
}

const still: Verification = {
  finding: { id: 'git-sensor-stuck', ref: '7.10', title: 'Latest commit not fetched', state: 'present', evidence: [{ object: 'pod/devtroncd/git-sensor-0', detail: '4 polls started and never ended' }, { object: 'pod/devtroncd/git-sensor-0', detail: 'last poll ended 12m ago' }] },
  looks: 6,
  waitedMs: 30_120,
  looked: ['the last 200 log lines of pod git-sensor-0 in devtroncd'],
};

describe("the bot's reading of a run's look at the symptom", () => {
  it('keeps a look it can read, and leaves out (and logs) one it cannot: the stage then ends as "every step finished"', () => {
    const { logger, lines } = recording();
    const good: EndedRun = { status: 'completed', message: 'done', verification: still };
    expect(checkedRun(good, logger, 'r1')).toEqual(good);
    const odd = { status: 'completed', message: 'done', verification: { finding: { state: 'gone' }, looks: 0 } } as unknown as EndedRun;
    expect(checkedRun(odd, logger, 'r2')).toEqual({ status: 'completed', message: 'done' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ requestId: 'r2', msg: "the worker's look at the symptom could not be read; is it older than the bot?" });
  });

  it('records the verdict for the audit trail in one line: still present with how long and the first evidence', () => {
    expect(auditDetail(still)).toBe('still present after 6 looks over 30.1 s: pod/devtroncd/git-sensor-0 4 polls started and never ended (and 1 more)');
    expect(auditDetail({ ...still, looks: 1, waitedMs: 40, finding: { ...still.finding, state: 'absent', evidence: [] } })).toBe('symptom cleared (1 look over 0.0 s)');
    expect(auditDetail({ ...still, finding: { ...still.finding, state: 'unknown', evidence: [], reason: 'forbidden', message: 'cannot list pods' } })).toBe('could not tell (forbidden): cannot list pods');
  });
});
