import { describe, expect, it } from 'vitest';
import type { Choice, View } from '../../src/core/view.js';
import { pasteView, evidenceView } from '../../src/core/paste-view.js';
import { entriesToCheck, reconcile, type ClusterEvidence } from '../../src/core/reconcile.js';
import type { Finding } from '../../src/doctor/index.js';
import { match, type MatchResult } from '../../src/matching/index.js';
import { plainText, toText } from '../../src/views/plain.js';

/**
 * Issue 12 item 7: a paste's text answer weighed against the doctor's findings, purely. The text
 * answers are the matcher's own on real-looking pastes; the findings are what a worker reports.
 */

/** A finding as the worker reports it (src/doctor/scan.ts). */
function finding(id: string, state: Finding['state'], more: Partial<Finding> = {}): Finding {
  return { id, ref: '', title: id, state, evidence: [], ...more };
}
const jobs = [
  { object: 'job/devtroncd/postgresql-migrate-devtron-8', detail: '0/1 completions, BackoffLimitExceeded 3m ago; pod postgresql-migrate-devtron-8-x2k Failed (Error, exit 1)' },
  { object: 'job/devtroncd/postgresql-migrate-casbin-8', detail: '0/1 completions, BackoffLimitExceeded 3m ago; no pods' },
  { object: 'job/devtroncd/app-sync-job-1', detail: '0/1 completions, created 9m ago; no pods' },
];
const seen = (cluster: string, ...findings: Finding[]): ClusterEvidence => ({ ok: true, cluster, findings });

/** The choices of an answer, as buttons or commands. */
const choices = (view: View): Choice[] => view.parts.flatMap((p) => (p.kind === 'choices' ? p.choices : []));
const primary = (view: View) => choices(view).filter((c) => c.style === 'primary').map((c) => c.command);
const plans = (view: View) => choices(view).filter((c) => c.action === 'match-plan-fix').map((c) => c.command);
const text = (view: View) => toText(view);

// The text's answers: a clear match (entry 1), and an ask between two equally likely entries.
const installJobs = match('job has reached the specified backoff limit postgresql-migrate-devtron');
const buildOrCommits = match('build logs not visible\ncommits not visible');
const gitSensor = match('git-sensor not fetching latest commit, auto build not triggered, exit status 128');

describe('the pastes these tests use, as the matcher answers them', () => {
  it('are a match, an ask between two entries, and a match with an alternative', () => {
    expect(installJobs).toMatchObject({ verdict: 'match', matches: [{ id: 'install-jobs-failed' }] });
    expect(buildOrCommits.verdict).toBe('ask');
    expect(buildOrCommits.matches.map((m) => m.id).sort()).toEqual(['build-logs', 'commits-exit-128']);
    expect(gitSensor).toMatchObject({ verdict: 'match', matches: [{ id: 'git-sensor-stuck' }, { id: 'commits-exit-128' }] });
  });
});

describe('reconcile: an ask the cluster can settle', () => {
  it('proposes the one candidate seen in the cluster, first, with its evidence; the other stays plannable but not pushed', () => {
    const answer = reconcile(buildOrCommits, seen('prod-eu', finding('build-logs', 'present', { evidence: [{ object: 'pod/devtroncd/kubewatch-5d8', detail: 'log: nats: connection closed (09:12:03)' }] }), finding('commits-exit-128', 'absent')), true);
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'decided', proposed: 'build-logs' });
    expect(answer.kind === 'checked' && answer.order.map((w) => w.candidate.id)).toEqual(['build-logs', 'commits-exit-128']);
    const view = pasteView(answer);
    expect(plainText(view.summary)).toBe('Seen in prod-eu: build-logs (guide 7.4), proposed');
    expect(text(view)).toContain('🩺 The cluster decides: of the 2 entries this could be, Build logs not visible and build cannot be aborted is the one seen in prod-eu.');
    expect(text(view)).toContain('🩺 seen in prod-eu: pod/devtroncd/kubewatch-5d8 log: nats: connection closed (09:12:03)');
    expect(text(view)).toMatch(/commits-exit-128 — Commits not visible, 'exit status 128' \(\d+%\) — 🩺 not seen in prod-eu right now/u);
    expect(primary(view)).toEqual(['fix build-logs prod-eu']);
    expect(plans(view)).toEqual(['fix build-logs prod-eu', 'fix commits-exit-128 prod-eu']);
  });

  it('stays an ask when several candidates are seen, those seen first, and says so', () => {
    const answer = reconcile(buildOrCommits, seen('prod-eu', finding('commits-exit-128', 'present', { evidence: jobs.slice(0, 1) }), finding('build-logs', 'present', { evidence: jobs.slice(0, 1) })));
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'still-ask' });
    expect(answer.kind === 'checked' && answer.proposed).toBeUndefined();
    const view = pasteView(answer);
    expect(primary(view)).toEqual([]);
    expect(text(view)).toContain('🩺 2 of these are seen in prod-eu: pick the one that fits.');
  });

  it('stays an ask when none is seen, lowering nothing it cannot tell about below what is absent', () => {
    const answer = reconcile(buildOrCommits, seen('prod-eu', finding('commits-exit-128', 'absent'), finding('build-logs', 'unknown', { reason: 'forbidden', message: 'pods is forbidden' })));
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'still-ask' });
    expect(answer.kind === 'checked' && answer.order.map((w) => w.candidate.id)).toEqual(['build-logs', 'commits-exit-128']);
    const view = pasteView(answer);
    expect(primary(view)).toEqual([]);
    expect(text(view)).toContain('🩺 could not check in prod-eu: the worker may not read it: pods is forbidden');
    expect(text(view)).toContain('🩺 not seen in prod-eu right now');
  });

  it('does not propose a fix the paste says is applied already, even when its symptom is seen, and shows what the cluster shows of it', () => {
    const applied = match('I have set nginx.ingress.kubernetes.io/proxy-body-size: 200m on the ingress and the upload still fails with 413 Request Entity Too Large');
    expect(applied).toMatchObject({ verdict: 'no-match', note: 'applied' });
    expect(entriesToCheck(applied)).toEqual(['upload-too-large']);
    const answer = reconcile(applied, seen('prod-eu', finding('upload-too-large', 'present', { evidence: [{ object: 'ingress/devtroncd/devtron-ingress', detail: 'no proxy-body-size annotation' }] })));
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'tried' });
    const view = pasteView(answer);
    expect(primary(view)).toEqual([]);
    expect(plainText(view.summary)).toContain('appears to be applied already');
    expect(text(view)).toContain('🩺 seen in prod-eu: ingress/devtroncd/devtron-ingress no proxy-body-size annotation');
  });
});

describe('reconcile: a match', () => {
  it('confirms a match whose symptom the cluster shows: seen in the cluster, with the first objects and how many more', () => {
    const answer = reconcile(installJobs, seen('prod-eu', finding('install-jobs-failed', 'present', { evidence: [...jobs, { object: '…', detail: '4 more' }] })));
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'confirmed', proposed: 'install-jobs-failed' });
    const view = pasteView(answer);
    expect(plainText(view.summary)).toMatch(/^Likely install-jobs-failed \(guide 7\.1\), confidence \d+%; seen in prod-eu$/u);
    expect(text(view)).toContain(
      '🩺 seen in prod-eu: job/devtroncd/postgresql-migrate-devtron-8 0/1 completions, BackoffLimitExceeded 3m ago; pod postgresql-migrate-devtron-8-x2k Failed (Error, exit 1); job/devtroncd/postgresql-migrate-casbin-8 0/1 completions, BackoffLimitExceeded 3m ago; no pods (and 5 more)',
    );
    // The cluster was the default one: Plan fix plans there, as a text answer's does.
    expect(primary(view)).toEqual(['fix install-jobs-failed']);
  });

  it('does not push a fix whose symptom the cluster does not show: says so, and a person may still plan it', () => {
    const answer = reconcile(installJobs, seen('prod-eu', finding('install-jobs-failed', 'absent')), true);
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'not-seen' });
    expect(answer.kind === 'checked' && answer.proposed).toBeUndefined();
    const view = pasteView(answer);
    expect(plainText(view.summary)).toMatch(/^Possibly install-jobs-failed \(guide 7\.1\) by the text, confidence \d+%; not seen in prod-eu right now$/u);
    expect(text(view)).toContain('🩺 not seen in prod-eu right now, so I am not proposing this fix; plan it anyway if you know better');
    expect(primary(view)).toEqual([]);
    expect(plans(view)).toEqual(['fix install-jobs-failed prod-eu']);
    expect(toText(evidenceView(answer)!)).toContain('install-jobs-failed is not seen in prod-eu right now, so I am not proposing its fix; type fix install-jobs-failed prod-eu to plan it anyway if you know better.');
  });

  it('proposes the alternative the cluster shows when the text\'s first is not seen there', () => {
    const answer = reconcile(gitSensor, seen('prod-eu', finding('git-sensor-stuck', 'absent'), finding('commits-exit-128', 'present', { evidence: [{ object: 'pod/devtroncd/git-sensor-0', detail: 'log: exit status 128 (github.com/acme/api)' }] })));
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'decided', proposed: 'commits-exit-128' });
    expect(primary(pasteView(answer))).toEqual(['fix commits-exit-128']);
  });

  it('keeps the proposal when the cluster cannot tell (unknown), and shows why', () => {
    const answer = reconcile(installJobs, seen('prod-eu', finding('install-jobs-failed', 'unknown', { reason: 'unreachable', message: 'connect ECONNREFUSED 10.0.0.1:443' })));
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'unchanged', proposed: 'install-jobs-failed' });
    const view = pasteView(answer);
    expect(plainText(view.summary)).toBe(plainText(pasteView({ kind: 'text', result: installJobs }).summary));
    expect(primary(view)).toEqual(['fix install-jobs-failed']);
    expect(text(view)).toContain('🩺 could not check in prod-eu: no answer: connect ECONNREFUSED 10.0.0.1:443');
    expect(toText(evidenceView(answer)!)).toContain('The cluster could not tell; the answer from the text stands.');
  });

  it('keeps the proposal when the symptom is not observable from the cluster, and says what to check', () => {
    const answer = reconcile(installJobs, seen('prod-eu', finding('install-jobs-failed', 'not-observable', { message: 'the login page' })));
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'unchanged', proposed: 'install-jobs-failed' });
    expect(text(pasteView(answer))).toContain('🩺 not observable from the cluster: the login page');
  });

  it('treats a candidate the worker did not report on as unknown', () => {
    const answer = reconcile(installJobs, seen('prod-eu'));
    expect(answer).toMatchObject({ kind: 'checked', outcome: 'unchanged', order: [{ seen: { state: 'unknown', message: 'the worker did not report on it' } }] });
  });
});

describe('reconcile: no evidence', () => {
  it('lets the text answer stand when the cluster cannot be read, and says why', () => {
    const answer = reconcile(installJobs, { ok: false, cluster: 'prod-eu', why: 'no worker of prod-eu answered within 5 s' });
    expect(answer).toEqual({ kind: 'unavailable', result: installJobs, cluster: 'prod-eu', named: false, why: 'no worker of prod-eu answered within 5 s' });
    const view = pasteView(answer);
    expect(primary(view)).toEqual(['fix install-jobs-failed']);
    expect(text(view)).toContain('🩺 Cluster evidence unavailable: no worker of prod-eu answered within 5 s. This answer is from the text alone.');
  });

  it('has nothing to check on a no-match: the answer is the text\'s as it was', () => {
    const none: MatchResult = match('thanks, that worked! lunch at 12?');
    expect(entriesToCheck(none)).toEqual([]);
    expect(reconcile(none, seen('prod-eu'))).toEqual({ kind: 'text', result: none });
  });

  it('says while it reads the cluster that it does, the text answer already usable', () => {
    const view = pasteView({ kind: 'pending', result: installJobs, cluster: 'prod-eu', named: true });
    expect(primary(view)).toEqual(['fix install-jobs-failed prod-eu']);
    expect(text(view)).toContain('🩺 Checking prod-eu for this symptom (read-only)…');
  });
});
