import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { appearedView } from '../../src/core/doctor-watch.js';
import { doctorView } from '../../src/core/doctor.js';
import { checkFix } from '../../src/core/fix.js';
import { matchView } from '../../src/core/match.js';
import { parseCommand } from '../../src/core/parse.js';
import { loadConfig } from '../../src/config.js';
import type { Finding } from '../../src/doctor/index.js';
import { match } from '../../src/matching/index.js';
import { mrkdwn, slackMessage } from '../../src/views/slack/answer.js';
import { toText } from '../../src/views/plain.js';
import { LIMITS, blocksText } from '../fakes/slack-api.js';
import { blockKitErrors } from '../fakes/slack/block-kit-limits.js';

/**
 * `dashboards-missing` is planned only with the metrics store's address, which a "Plan fix" button
 * cannot carry. Every answer offering it says so, and the line it gives to type names the value with a
 * slot that says what goes there; the line typed as it is gets an answer saying what it should be.
 */
const entry = catalogue.find((e) => e.id === 'dashboards-missing')!;
const finding: Finding = { id: entry.id, ref: entry.ref, title: entry.title, state: 'present', evidence: [{ object: 'dashboard/org/2', detail: 'does not exist' }] };
const hint = 'fix dashboards-missing prod-eu metricsStore=<metrics-store-URL>';
const needs = 'Plan fix needs a value the button cannot carry: metricsStore, the metrics store endpoint registered for the cluster (e.g. http://prometheus-server.monitoring.svc:80).';
const config = loadConfig({ env: {}, overrides: { clusters: [{ name: 'prod-eu', kube: { source: 'simulated' } }], defaultCluster: 'prod-eu' } });

describe('what planning a fix that needs a value takes, as each answer says it', () => {
  it("the doctor's answer: the terminal's line names metricsStore with a slot, and what goes in it", () => {
    const text = toText(doctorView({ startedAt: '2026-11-22T12:00:00.000Z', tookMs: 10, findings: [finding] }, 'prod-eu')).split('\n');
    expect(text).toContain(`  Type "${hint}".`);
    expect(text).toContain(needs);
  });

  it("the scheduled doctor's post: the same line and the same need, in Slack too", () => {
    const view = appearedView(finding, 'prod-eu');
    expect(toText(view)).toContain(`Type "${hint}" or "snooze dashboards-missing prod-eu".`);
    const m = slackMessage(view);
    expect(blockKitErrors(m.blocks, LIMITS.blocksPerMessage)).toEqual([]);
    expect(blocksText(m.blocks)).toContain('Plan fix needs a value the button cannot carry: `metricsStore`, the metrics store endpoint registered for the cluster (e.g. `http://prometheus-server.monitoring.svc:80`).');
  });

  it('a paste answer: the proposed fix names the value; an entry without one keeps the plain line', () => {
    const result = match("Grafana dashboards missing on App Details: 'panel with id 2 not found'");
    expect(result.verdict === 'no-match' ? undefined : result.matches[0]!.id).toBe('dashboards-missing');
    const text = toText(matchView(result));
    expect(text).toContain('Type "fix dashboards-missing metricsStore=<metrics-store-URL>" or "explain dashboards-missing".');
    expect(text).toContain(`  ${needs}`);
    expect(toText(matchView(match('job has reached the specified backoff limit postgresql-migrate-devtron')))).toContain('Type "fix install-jobs-failed" or');
  });

  it('the line as offered still reads as a fix, and typed as it is, or bare, the answer says what to put and what to type', () => {
    const parsed = parseCommand(hint);
    expect(parsed).toEqual({ kind: 'fix', entryId: 'dashboards-missing', cluster: 'prod-eu', params: { metricsStore: '<metrics-store-URL>' } });
    const slot = checkFix(config, parsed as { entryId: string; cluster: string; params: Record<string, string> });
    expect(slot.ok ? '' : mrkdwn(slot.view.summary)).toBe('`metricsStore=&lt;metrics-store-URL&gt;` is not valid: the metrics store endpoint registered for the cluster, e.g. `metricsStore=http://prometheus-server.monitoring.svc:80`.');
    const bare = checkFix(config, { entryId: 'dashboards-missing' });
    expect(bare.ok ? '' : mrkdwn(bare.view.summary)).toBe(
      '`metricsStore` is required: the metrics store endpoint registered for the cluster, e.g. `metricsStore=http://prometheus-server.monitoring.svc:80`. Type `/platform fix dashboards-missing prod-eu metricsStore=&lt;metrics-store-URL&gt;`, with the value in place of `&lt;metrics-store-URL&gt;`.',
    );
  });
});

describe('a value the doctor saw, in the line it offers', () => {
  const store = 'http://prometheus-server.monitoring.svc:80';
  const seen: Finding = { ...finding, fixParams: { metricsStore: store } };
  const line = `fix dashboards-missing prod-eu metricsStore=${store}`;

  it("the doctor's answer and the scheduled doctor's post: the line names the value, and nothing asks for it", () => {
    const text = toText(doctorView({ startedAt: '2026-11-22T12:00:00.000Z', tookMs: 10, findings: [seen] }, 'prod-eu'));
    expect(text).toContain(`  Type "${line}".`);
    expect(text).not.toContain('<metrics-store-URL>');
    expect(text).not.toContain('Plan fix needs');
    expect(toText(appearedView(seen, 'prod-eu'))).toContain(`Type "${line}" or "snooze dashboards-missing prod-eu".`);
  });

  it("Slack's Plan fix carries the value, so the click plans what the line does", () => {
    const m = slackMessage(doctorView({ startedAt: '2026-11-22T12:00:00.000Z', tookMs: 10, findings: [seen] }, 'prod-eu'));
    const button = m.blocks.flatMap((b) => (b as { elements?: { action_id?: string; value?: string }[] }).elements ?? []).find((e) => e.action_id === 'match-plan-fix');
    expect(JSON.parse(button?.value ?? '{}')).toEqual({ e: 'dashboards-missing', c: 'prod-eu', p: { metricsStore: store } });
    expect(blocksText(m.blocks)).not.toContain('Plan fix needs');
  });
});

