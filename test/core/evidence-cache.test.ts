import { describe, expect, it } from 'vitest';
import { ClusterEvidenceCache } from '../../src/core/evidence-cache.js';
import { ifReady, replyToPaste } from '../../src/core/paste.js';
import { plainText } from '../../src/views/plain.js';
import { match } from '../../src/matching/index.js';
import type { DoctorDesk } from '../../src/core/doctor.js';
import type { Finding } from '../../src/doctor/index.js';

/**
 * The findings cache between pasted errors and doctor jobs: a flood of pastes about one entry is one
 * job per cluster and entry a while, not one per paste. The desk stands for the coordinator's
 * runDoctor (the end-to-end tests run the real one, test/e2e/paste-evidence.test.ts); it records the
 * jobs asked for and answers when told.
 */
function desk() {
  const asked: { cluster: string; entries: readonly string[]; timeoutMs?: number }[] = [];
  const pending: ((answer: 'ok' | string) => void)[] = [];
  const d: DoctorDesk = {
    runDoctor(cluster, _who, only) {
      asked.push({ cluster, entries: only?.entries ?? [], ...(only?.timeoutMs ? { timeoutMs: only.timeoutMs } : {}) });
      return new Promise((resolve) =>
        pending.push((answer) =>
          resolve(answer === 'ok' ? { ok: true, report: { startedAt: '', tookMs: 1, findings: (only?.entries ?? []).map((id): Finding => ({ id, ref: '', title: id, state: 'absent', evidence: [] })) } } : { ok: false, message: answer }),
        ),
      );
    },
  };
  return { d, asked, answerAll: (a: 'ok' | string) => pending.splice(0).forEach((p) => p(a)) };
}

describe('the paste evidence cache', () => {
  it('runs one job for pastes about the same entries at once, and reuses its findings for the TTL', async () => {
    let now = 1_000;
    const { d, asked, answerAll } = desk();
    const cache = new ClusterEvidenceCache(d, { ttlMs: 45_000, now: () => now });
    const checks = Array.from({ length: 20 }, () => cache.check('prod-eu', ['commits-exit-128'], 'U1'));
    answerAll('ok');
    const got = await Promise.all(checks);
    expect(asked).toEqual([{ cluster: 'prod-eu', entries: ['commits-exit-128'], timeoutMs: 5000 }]);
    expect(got.every((g) => g.ok && g.findings[0]?.state === 'absent')).toBe(true);
    now += 44_000;
    await cache.check('prod-eu', ['commits-exit-128'], 'U2');
    expect(asked).toHaveLength(1);
    // Another cluster, or the same entry after the TTL, is read again.
    const other = cache.check('prod-us', ['commits-exit-128'], 'U2');
    now += 2_000;
    const again = cache.check('prod-eu', ['commits-exit-128'], 'U2');
    answerAll('ok');
    await Promise.all([other, again]);
    expect(asked.map((a) => a.cluster)).toEqual(['prod-eu', 'prod-us', 'prod-eu']);
  });

  it('asks only for the entries it has not read: a paste about x and y after one about y reads x alone', async () => {
    const { d, asked, answerAll } = desk();
    const cache = new ClusterEvidenceCache(d);
    const first = cache.check('prod-eu', ['build-logs'], 'U1');
    answerAll('ok');
    await first;
    const second = cache.check('prod-eu', ['commits-exit-128', 'build-logs'], 'U1');
    answerAll('ok');
    const got = await second;
    expect(asked.map((a) => a.entries)).toEqual([['build-logs'], ['commits-exit-128']]);
    expect(got.ok && got.findings.map((f) => f.id)).toEqual(['commits-exit-128', 'build-logs']);
  });

  it('says why when the cluster could not be read, keeps that shortly, then tries again', async () => {
    let now = 1_000;
    const { d, asked, answerAll } = desk();
    const cache = new ClusterEvidenceCache(d, { failedTtlMs: 10_000, now: () => now });
    const first = cache.check('prod-eu', ['build-logs'], 'U1');
    answerAll('no worker of prod-eu answered within 5 s');
    expect(await first).toEqual({ ok: false, cluster: 'prod-eu', why: 'no worker of prod-eu answered within 5 s' });
    now += 9_000;
    expect(await cache.check('prod-eu', ['build-logs'], 'U1')).toMatchObject({ ok: false });
    expect(asked).toHaveLength(1);
    now += 2_000;
    const retried = cache.check('prod-eu', ['build-logs'], 'U1');
    answerAll('ok');
    expect(await retried).toMatchObject({ ok: true });
    expect(asked).toHaveLength(2);
  });

  it('reports the entries it could not read as unknown beside those it could', async () => {
    const { d, answerAll } = desk();
    const cache = new ClusterEvidenceCache(d);
    const first = cache.check('prod-eu', ['build-logs'], 'U1');
    answerAll('ok');
    await first;
    const mixed = cache.check('prod-eu', ['build-logs', 'commits-exit-128'], 'U1');
    answerAll('Redis did not answer');
    expect(await mixed).toMatchObject({
      ok: true,
      findings: [
        { id: 'build-logs', state: 'absent' },
        { id: 'commits-exit-128', state: 'unknown', reason: 'unreachable', message: 'Redis did not answer' },
      ],
    });
  });

  it('answers "unavailable" when the queue does not answer at all, rather than waiting', async () => {
    const { d } = desk();
    const cache = new ClusterEvidenceCache(d, { timeoutMs: 20 });
    expect(await cache.check('prod-eu', ['build-logs'], 'U1')).toEqual({ ok: false, cluster: 'prod-eu', why: 'no answer from prod-eu within 0.02 s' });
  });

  it('has a reused finding ready at once, so a surface shows one answer with it rather than the text and an update', async () => {
    const { d, answerAll } = desk();
    const cache = new ClusterEvidenceCache(d);
    const config = { clusters: [{ name: 'prod-eu' }], defaultCluster: 'prod-eu' } as Parameters<typeof replyToPaste>[2]['config'];
    const paste = 'git-sensor: fatal: could not read Username: exit status 128';
    const first = replyToPaste(match(paste), paste, { config, evidence: cache, user: 'U1' });
    expect(await ifReady(first.later)).toBeUndefined();
    expect(plainText(first.first.summary)).toMatch(/^Possibly commits-exit-128 \(guide 7\.23\), confidence \d+%$/);
    answerAll('ok');
    await first.later;
    const second = replyToPaste(match(paste), paste, { config, evidence: cache, user: 'U2' });
    const ready = await ifReady(second.later);
    expect(plainText(ready!.view.summary)).toMatch(/^Possibly commits-exit-128 \(guide 7\.23\) by the text, confidence \d+%; not seen in prod-eu right now$/);
  });
});
