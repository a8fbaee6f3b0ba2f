import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { blockKitErrors, LIMITS } from '../fakes/slack/block-kit-limits.js';
import { blocksText } from '../fakes/slack-api.js';
import { doctorView } from '../../src/core/doctor.js';
import type { DoctorReport, Finding } from '../../src/doctor/index.js';
import { slackMessage } from '../../src/views/slack/answer.js';
import { plainText, toText } from '../../src/views/plain.js';

const finding = (id: string, over: Partial<Finding>): Finding => ({ id, ref: '7.1', title: `Title of ${id}`, state: 'absent', evidence: [], ...over });

const report: DoctorReport = {
  startedAt: '2026-11-22T12:00:00.000Z',
  tookMs: 1234,
  findings: [
    finding('install-jobs-failed', { state: 'present', evidence: [{ object: 'job/devtroncd/postgresql-migrate-devtron', detail: '0/1 completions, BackoffLimitExceeded 3m ago' }] }),
    finding('database-image-pull', { state: 'unknown', reason: 'forbidden', message: 'Permission missing for list events in all namespaces' }),
    finding('image-pull-private-registry', { state: 'unknown', reason: 'forbidden', message: 'Permission missing for list events in all namespaces' }),
    finding('rollout-crds-outdated', { state: 'unknown', reason: 'no-detector', message: 'this entry has no detector yet' }),
    finding('stale-session-cookie', { state: 'not-observable', message: 'In the browser: delete the cookie.' }),
    finding('sso-nat-allowlist', { state: 'not-observable', message: 'Ask the cloud console.' }),
    finding('build-logs', {}),
  ],
};

describe("the doctor's answer", () => {
  it('shows each symptom with its evidence and its fix, the unknowns with why, the rest folded, the time', () => {
    const text = toText(doctorView(report, 'prod-eu'));
    expect(text.split('\n')).toEqual([
      'Doctor: 1 symptom of the guide present in prod-eu. 2 entries could not be told (below).',
      '🩺 Title of install-jobs-failed (install-jobs-failed, guide 7.1) — seen in prod-eu',
      'job/devtroncd/postgresql-migrate-devtron 0/1 completions, BackoffLimitExceeded 3m ago',
      '  Type "fix install-jobs-failed prod-eu".',
      'Could not tell',
      'database-image-pull, image-pull-private-registry — the worker may not read it: Permission missing for list events in all namespaces',
      '  Not checked yet (no detector): rollout-crds-outdated.',
      '  Not observable from the cluster (a browser, a cloud console, chart values): stale-session-cookie, sso-nat-allowlist; explain <id> says what to check.',
      '  Checked 6 entries in 1.2 s, read-only.',
    ]);
  });

  it('renders as Block Kit with a Plan fix button that carries the entry and the cluster', () => {
    const message = slackMessage(doctorView(report, 'prod-eu'));
    expect(message.text).toBe('Doctor on prod-eu: install-jobs-failed');
    const values = message.blocks.flatMap((b) => (b as { elements?: { value?: string }[] }).elements ?? []).map((e) => e.value);
    expect(values).toContain(JSON.stringify({ e: 'install-jobs-failed', c: 'prod-eu' }));
    expect(message.blocks.length).toBeLessThanOrEqual(50);
  });

  it('does not blame the cluster for the metrics dashboard or the database not answering', () => {
    // Found by a newcomer's try (doctor --kubeconfig on npm run sim's kubeconfig): "the cluster did not answer: Cannot reach
    // the metrics dashboard at …", while the cluster had answered every read.
    const dashboard = { reason: 'unreachable' as const, message: 'Cannot reach the metrics dashboard at http://devtron-grafana.devtroncd/grafana (ENOTFOUND) during GET /api/orgs' };
    const text = toText(doctorView({ ...report, findings: [finding('dashboards-missing', { state: 'unknown', ...dashboard })] }, 'local'));
    expect(text).toContain('dashboards-missing — no answer: Cannot reach the metrics dashboard at http://devtron-grafana.devtroncd/grafana (ENOTFOUND) during GET /api/orgs');
    expect(text).not.toContain('the cluster did not answer');
  });

  it('says so when nothing is present, and only then: entries it could not tell are not "no symptom"', () => {
    const quiet = { ...report, findings: report.findings.map((f) => (f.state === 'present' ? { ...f, state: 'absent' as const, evidence: [] } : f)) };
    // A cluster that cannot be read shows no symptom: the headline says what could not be told.
    expect(toText(doctorView(quiet, 'prod-eu')).split('\n')[0]).toBe('Doctor: No symptom of the guide seen in prod-eu, but 2 entries could not be told (below).');
    expect(plainText(doctorView(quiet, 'prod-eu').summary)).toBe('Doctor on prod-eu: no symptom seen, 2 could not be told');
    const healthy = { ...quiet, findings: quiet.findings.map((f) => (f.state === 'unknown' && f.reason !== 'no-detector' ? { ...f, state: 'absent' as const, evidence: [] } : f)) };
    expect(toText(doctorView(healthy, 'prod-eu')).split('\n')[0]).toBe('Doctor: No symptom of the guide is present in prod-eu.');
  });
  it('a cluster broken in every way at once still gets an answer Slack accepts, naming every symptom', () => {
    const evidence = Array.from({ length: 8 }, (_, i) => ({ object: `pod/devtroncd/pod-${i}`, detail: 'x'.repeat(240) }));
    const broken: DoctorReport = { ...report, findings: catalogue.map((e) => finding(e.id, { ref: e.ref, title: e.title, state: 'present', evidence: [...evidence, { object: '…', detail: '3 more' }] })) };
    const message = slackMessage(doctorView(broken, 'prod-eu'));
    expect(blockKitErrors(message.blocks, LIMITS.blocksPerMessage)).toEqual([]);
    const text = blocksText(message.blocks);
    expect(text).toContain(`${catalogue.length} symptoms of the guide present in \`prod-eu\`.`);
    for (const e of catalogue) expect(text, e.id).toContain(`\`${e.id}\``);
    expect(text).toMatch(/And \d+ more present in `prod-eu`: .*\. Each is planned like the others, e\.g\. `\/platform fix [a-z0-9-]+ prod-eu`\./);
  });
});
