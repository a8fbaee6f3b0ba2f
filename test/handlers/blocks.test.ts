import { describe, expect, it } from 'vitest';
import { findEntry } from '../../src/catalogue/index.js';
import { auditBlocks } from '../../src/views/slack/audit.js';
import { helpBlocks, listBlocks, unknownEntryBlocks } from '../../src/views/slack/catalogue.js';
import { approvalCard, failureBlocks, progressBlocks, stageEndBlocks } from '../../src/views/slack/remedy.js';
import type { RemedyRequest } from '../../src/jobs/requests.js';
import { hashSteps, type Plan, type PlannedStep } from '../../src/remedies/plan.js';
import { blocksText } from '../fakes/slack-api.js';
import { blockKitErrors } from '../fakes/slack/block-kit-limits.js';

const request: RemedyRequest = {
  id: 'rabc123',
  entryId: 'build-logs',
  cluster: 'prod-eu',
  requestedBy: 'UREQUESTER',
  createdAt: '2026-11-21T10:00:00.000Z',
  stageId: 'restart-watcher',
  status: 'awaiting-approval',
  attempt: '0123456789abcdef',
  context: '{}',
  params: '{}',
};

function planWithPods(count: number, nameLength = 60): Plan {
  const pods = Array.from({ length: count }, (_, i) => ({
    kind: 'Pod',
    namespace: 'devtroncd',
    name: `devtron-${String(i).padStart(4, '0')}-${'x'.repeat(nameLength)}`,
    uid: `0000${i}-aaaa-bbbb-cccc-dddddddddddd`,
    state: 'Running, Ready, owned by a ReplicaSet',
  }));
  const steps: PlannedStep[] = [
    { index: 0, kind: 'listPods', does: 'Check that a new pod appears', risk: 'read-only', approval: 'none', lines: ['ci-build-1 — Running, created 30s ago', 'a new pod'], targets: [], data: { namespace: 'devtron-ci' } },
    { index: 1, kind: 'deletePods', does: 'Delete the main pods', risk: 'restart', approval: 'approver', lines: pods.map((p) => `delete Pod \`${p.namespace}/${p.name}\` (uid \`${p.uid.slice(0, 8)}\`, ${p.state})`), targets: pods, data: {} },
    { index: 2, kind: 'wait', does: 'Wait 5 minutes', risk: 'read-only', approval: 'none', lines: ['wait 5 min — the guide waits'], targets: [], data: {} },
    { index: 3, kind: 'manual', does: 'Trigger a new build', risk: 'read-only', approval: 'none', lines: ['☐ Trigger a new build.'], targets: [], data: {} },
  ];
  return { requestId: request.id, entryId: 'build-logs', stageId: 'restart-watcher', cluster: 'prod-eu', plannedAt: '2026-11-21T10:00:05.000Z', approval: 'approver', params: {}, steps, warnings: [], hash: hashSteps(steps) };
}

const entry = findEntry('build-logs')!;

describe('Block Kit builders', () => {
  it('show each step, its risk and the exact pods on the approval card, with Approve, Deny, Cancel and the expiry', () => {
    const card = approvalCard(entry, planWithPods(2, 5), { request, expiresAt: new Date('2026-11-21T10:15:05.000Z') });
    const text = blocksText(card);
    expect(text).toContain('Approve: Restart the main platform pods and the build-event watcher');
    expect(text).toContain('2. Delete the main pods* — restart');
    expect(text).toContain('delete Pod `devtroncd/devtron-0000-xxxxx` (uid `00000-aa`');
    expect(text).toContain('wait 5 min');
    expect(text).toContain('☐ Trigger a new build.');
    expect(text).toContain('Approve');
    expect(text).toContain('Deny');
    expect(text).toContain('Cancel');
    expect(text).toContain('needs one approver · plan `');
    expect(text).toContain('· expires 2026-11-21 10:15 UTC');
    expect(blockKitErrors(card, 50)).toEqual([]);
  });

  it('stay within Slack\'s limits for a plan of 500 pods, and say how many were left out', () => {
    const card = approvalCard(entry, planWithPods(500), { request });
    expect(blockKitErrors(card, 50)).toEqual([]);
    expect(blocksText(card)).toMatch(/… and \d+ more/);
  });

  it('replace the buttons by who approved and when, once approved', () => {
    const card = approvalCard(entry, planWithPods(1), { request: { ...request, status: 'running', approvedBy: 'UAPPROVER', approvedAt: '2026-11-21T10:01:00.000Z' }, status: 'running' });
    const text = blocksText(card);
    expect(text).toContain('✅ Approved by <@UAPPROVER> at 2026-11-21 10:01 UTC · running');
    expect(JSON.stringify(card)).not.toContain('remedy-approve');
    expect(text).toContain('Cancel remedy');
  });

  it('stay within limits for long step details, failures, help and the list', () => {
    const plan = planWithPods(1);
    const details = Array.from({ length: 400 }, (_, i) => `replacement pod-${i} Ready (new uid ${'f'.repeat(30)})`);
    const all = [
      progressBlocks(plan, { index: 1, status: 'done', message: 'Deleted 400 pods', details }).blocks,
      stageEndBlocks(request, plan, { status: 'changed', message: 'x'.repeat(5000), details }, entry.stages[0]!.then).blocks,
      failureBlocks(request, 'y'.repeat(10_000)).blocks,
      helpBlocks(['a', 'b'], 'a'),
      listBlocks(),
      unknownEntryBlocks('<@U1> & stuff', ['build-logs']),
    ];
    for (const blocks of all) expect(blockKitErrors(blocks, 50)).toEqual([]);
  });

  it('show a blocked plan\'s reason instead of the buttons', () => {
    const card = approvalCard(entry, { ...planWithPods(1), blocked: 'Needs platform v0.6.9 or later; this cluster runs v0.6.4.' }, { request });
    expect(blocksText(card)).toContain('⛔ Needs platform v0.6.9 or later; this cluster runs v0.6.4.');
    expect(card.some((b) => b.type === 'actions')).toBe(false);
  });

  it('fit 100 audit records with long details within Slack\'s limits', () => {
    const records = Array.from({ length: 100 }, (_, i) => ({ at: '2026-11-21T10:00:00.000Z', who: 'U0APPROVER', action: 'step' as const, requestId: `r${i}`, entryId: 'build-logs', cluster: 'prod', detail: 'x'.repeat(500) }));
    const blocks = auditBlocks(records);
    expect(blockKitErrors(blocks, 50)).toEqual([]);
    expect(blocksText(blocks)).toContain('(r99)');
  });

  it('escape what a user typed so it cannot mention or link', () => {
    expect(blocksText(unknownEntryBlocks('<!channel>', []))).toContain('&lt;!channel&gt;');
  });

  it("escape the cluster's words in a failure's and a stopped stage's notification text, as in their blocks", () => {
    // An admission webhook's refusal is any text its author wrote.
    const said = 'admission webhook "deny.example" denied the request: <!channel> see <https://evil.test|the fix>';
    const shown = 'admission webhook "deny.example" denied the request: &lt;!channel&gt; see &lt;https://evil.test|the fix&gt;';
    const failure = failureBlocks(request, said);
    const stopped = stageEndBlocks(request, planWithPods(1), { status: 'failed', step: 1, message: said });
    for (const m of [failure, stopped]) {
      expect(m.text).toContain(shown);
      expect(blocksText(m.blocks)).toContain(shown);
    }
  });
});
