import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseJobId } from '../../src/jobs/names.js';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { approver, bystander, channel, endRemedy, jobsOf, requestIdOf, requester, secondApprover, startFix, startStack, type Stack } from '../support/stack.js';

const core = { group: '', version: 'v1', plural: 'pods' };

function uidsOf(stack: Stack, selector: string): string[] {
  return stack.sim.list(core, 'devtroncd', selector).map((p) => String(p.metadata?.uid)).sort();
}
function uidOf(stack: Stack, name: string): string {
  return (stack.sim.get(core, 'devtroncd', name) as { metadata: { uid: string } }).metadata.uid;
}
function podDeletes(stack: Stack): string[] {
  return stack.sim.requests().filter((r) => r.method === 'DELETE' && /\/pods\//.test(r.path) && r.status < 300).map((r) => r.path.split('/').pop()!);
}
const hasButton = (m: StoredMessage, prefix: string) =>
  (m.blocks ?? []).some((b) => b.type === 'actions' && (b as unknown as { elements: { action_id: string }[] }).elements.some((e) => e.action_id.startsWith(prefix)));

describe('/platform fix build-logs, from a signed Slack request to the cluster and back', () => {
  let stack: Stack;
  /** The remedies a test asked for; each is ended after its test, so every test starts from a free entry. */
  const opened: string[] = [];

  beforeAll(async () => {
    stack = await startStack('build-logs');
  });
  afterEach(async () => {
    for (const id of opened.splice(0)) await endRemedy(stack, id);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /**
   * Given the deep case of guide 7.4 (restarting the watcher alone does not help while the brokers are
   * stuck), the requester asks for the fix: resolves with its thread and approval card.
   */
  async function askForFix(): Promise<{ rootTs: string; card: StoredMessage; requestId: string }> {
    await stack.sim.break('build-logs', { depth: 'broker' });
    const { rootTs, card } = await startFix(stack, 'build-logs');
    const requestId = requestIdOf(card);
    opened.push(requestId);
    return { rootTs, card, requestId };
  }

  /** The first stage approved and run: resolves when the guide's question is asked. */
  async function throughFirstStage(): Promise<{ rootTs: string; card: StoredMessage; requestId: string; question: StoredMessage }> {
    const asked = await askForFix();
    await stack.click(asked.card, 'remedy-approve', approver);
    const question = await stack.fake.waitFor((f) => f.thread(channel, asked.rootTs).find((m) => hasButton(m, 'remedy-choose')), { what: 'decision question', timeoutMs: 20_000 });
    return { ...asked, question };
  }

  it('acknowledges the signed slash command at once and posts the root message and the approval card', async () => {
    await stack.sim.break('build-logs', { depth: 'broker' });
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    const res = await stack.slash('fix build-logs');
    expect(res.status).toBe(200);

    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts) && m.text.includes('build-logs')), { what: 'root message' });
    expect(root.text).toContain(`<@${requester}> asked to fix *Build logs not visible and build cannot be aborted* (\`build-logs\`, guide 7.4) on cluster \`sim\``);

    const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { what: 'approval card', timeoutMs: 15_000 });
    opened.push(requestIdOf(card));
    const text = blocksText(card.blocks);
    // Each step, its risk, and the exact pods the plan resolved, by name and uid.
    expect(text).toContain('1. Check that a new pod appears in the CI namespace when a build starts* — read-only');
    expect(text).toContain('2. Delete the main platform pods and the build-event watcher pods so that they start again* — restart');
    const main = stack.sim.list(core, 'devtroncd', 'app=devtron')[0] as { metadata: { name: string; uid: string } };
    const watcher = stack.sim.list(core, 'devtroncd', 'app=kubewatch')[0] as { metadata: { name: string; uid: string } };
    expect(text).toContain(`delete Pod \`devtroncd/${main.metadata.name}\` (uid \`${main.metadata.uid.slice(0, 8)}\``);
    expect(text).toContain(`delete Pod \`devtroncd/${watcher.metadata.name}\` (uid \`${watcher.metadata.uid.slice(0, 8)}\``);
    expect(text).toMatch(/wait 0\.3 s \(guide: 5 min\)/);
    // The guide's first check: the build just started has its pod in the CI namespace.
    expect(text).toMatch(/• ci-9-\w+-\d+ — Running, created \d+s ago/);
    expect(text).toContain('needs one approver');
  });

  it('refuses a click from someone who is not an approver, privately, and changes nothing', async () => {
    const { rootTs, card, requestId } = await askForFix();
    const before = { main: uidsOf(stack, 'app=devtron'), watcher: uidsOf(stack, 'app=kubewatch'), deletes: podDeletes(stack).length };
    const cardBefore = JSON.stringify(card.blocks);
    const { response, responseId } = await stack.click(card, 'remedy-approve', bystander);
    expect(response.status).toBe(200);

    // The refusal is sent once the click was decided: whatever the click did, it has done by now.
    const refusal = await stack.fake.waitFor((f) => f.responses(responseId)[0]);
    expect(refusal.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(refusal.body.text)).toBe('Only the approvers of cluster `sim` can approve this: <@U0APPROVER>, <@U0APPROVER2>.');
    const audited = (await stack.bot.coordinator.audit.latest(20)).filter((r) => r.requestId === requestId).map((r) => [r.action, r.who]);
    expect(audited).toContainEqual(['approval-refused', bystander]);
    expect(audited.map(([action]) => action)).not.toContain('approved');
    expect(JSON.stringify(stack.thread(rootTs).find((m) => m.ts === card.ts)!.blocks)).toBe(cardBefore);
    expect(uidsOf(stack, 'app=devtron')).toEqual(before.main);
    expect(uidsOf(stack, 'app=kubewatch')).toEqual(before.watcher);
    expect(podDeletes(stack)).toHaveLength(before.deletes);
    expect((await jobsOf(stack, requestId)).filter((j) => j.name === 'run')).toHaveLength(0);
  });

  it('runs once when two approvers click Approve at the same moment, and reports each step in the thread', async () => {
    const { rootTs, card, requestId } = await askForFix();
    const before = { main: uidsOf(stack, 'app=devtron'), watcher: uidsOf(stack, 'app=kubewatch'), deletes: podDeletes(stack).length };
    const [a, b, c] = await Promise.all([
      stack.click(card, 'remedy-approve', approver),
      stack.click(card, 'remedy-approve', secondApprover),
      stack.click(card, 'remedy-approve', approver),
    ]);
    expect([a, b, c].map((x) => x.response.status)).toEqual([200, 200, 200]);

    // Exactly two of the three clicks are told it was already approved.
    const told = await stack.fake.waitFor((f) => {
      const r = [a, b, c].map((x) => f.responses(x.responseId)[0]).filter(Boolean);
      return r.length === 2 ? r : undefined;
    });
    for (const r of told) expect(String(r!.body.text)).toMatch(/^Already approved by <@U0APPROVER2?>\./);

    const question = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => hasButton(m, 'remedy-choose')), { what: 'decision question', timeoutMs: 20_000 });
    expect(blocksText(question.blocks)).toContain('Are the build logs visible now?');

    // The pods came back with new uids, Ready.
    const after = { main: uidsOf(stack, 'app=devtron'), watcher: uidsOf(stack, 'app=kubewatch') };
    expect(after.main).toHaveLength(1);
    expect(after.main).not.toEqual(before.main);
    expect(after.watcher).not.toEqual(before.watcher);
    for (const p of stack.sim.list(core, 'devtroncd', 'app in (devtron,kubewatch)') as { status: { conditions: { type: string; status: string }[] } }[]) {
      expect(p.status.conditions.find((x) => x.type === 'Ready')?.status).toBe('True');
    }
    expect(podDeletes(stack).length - before.deletes).toBe(2);
    const runs = (await jobsOf(stack, requestId, ['completed'])).filter((j) => parseJobId(j.id!)?.kind === 'run');
    expect(runs.map((j) => j.id!.replace(/-[0-9a-f]{16}-/, '-HASH-')).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/-restart-watcher-HASH-s0$/), expect.stringMatching(/-restart-watcher-HASH-s3$/)]),
    );

    const thread = stack.thread(rootTs).map((m) => m.text).join('\n');
    expect(thread).toContain('✅ Step 2 of 4: Deleted 2 pod(s); replacements are Ready with new uids.');
    expect(thread).toContain('⏳ Step 3 of 4: Waiting 0.3 s');
    expect(thread).toContain('👉 Step 4 of 4: Your turn: Trigger a new build.');

    const cardNow = stack.thread(rootTs).find((m) => m.ts === card.ts)!;
    const cardText = blocksText(cardNow.blocks);
    expect(cardText).toMatch(/✅ Approved by <@U0APPROVER2?> at \d{4}-\d\d-\d\d \d\d:\d\d UTC · outcome: done/);
    expect(hasButton(cardNow, 'remedy-approve')).toBe(false);
    // The brokers are still stuck: the symptom remains, as in the guide's "still failing" case.
    expect(stack.sim.symptoms()).toContain('build-logs');
  });

  it('on "Still failing" plans the second stage, and after approval restarts the brokers and the pods again', async () => {
    const deletesBefore = podDeletes(stack).length;
    const { rootTs, question } = await throughFirstStage();
    const brokers = { nats: uidOf(stack, 'devtron-nats-0'), stan: uidOf(stack, 'devtron-stan-0') };
    await stack.click(question, 'remedy-choose-still-failing', requester);

    const card = await stack.fake.waitFor(
      (f) => f.thread(channel, rootTs).find((m) => hasButton(m, 'remedy-approve') && blocksText(m.blocks).includes('Restart the message brokers')),
      { what: 'second approval card', timeoutMs: 15_000 },
    );
    const text = blocksText(card.blocks);
    expect(text).toContain(`delete Pod \`devtroncd/devtron-nats-0\` (uid \`${brokers.nats.slice(0, 8)}\``);
    expect(text).toContain(`delete Pod \`devtroncd/devtron-stan-0\` (uid \`${brokers.stan.slice(0, 8)}\``);

    await stack.click(card, 'remedy-approve', approver);
    const question2 = await stack.fake.waitFor(
      (f) => f.thread(channel, rootTs).filter((m) => hasButton(m, 'remedy-choose')).find((m) => m.ts !== question.ts),
      { what: 'second decision', timeoutMs: 20_000 },
    );
    expect(uidOf(stack, 'devtron-nats-0')).not.toBe(brokers.nats);
    expect(uidOf(stack, 'devtron-stan-0')).not.toBe(brokers.stan);
    expect(stack.sim.symptoms()).not.toContain('build-logs');
    expect(podDeletes(stack).length - deletesBefore).toBe(6);

    await stack.click(question2, 'remedy-choose-fixed', requester);
    const end = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('🎉 Resolved')));
    expect(end.text).toContain('Build logs are visible again.');
    // The channel sees the outcome on the root message itself, without opening the thread.
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.ts === rootTs && m.text.endsWith('🎉 resolved')), { what: 'the root marked resolved' });
    expect(root.text).toMatch(new RegExp(`^<@${requester}> asked to fix \\*Build logs not visible and build cannot be aborted\\* .* — 🎉 resolved$`));
  });

  it('never puts a Slack payload or a secret in job data', async () => {
    const { requestId } = await throughFirstStage();
    const jobs = await jobsOf(stack, requestId);
    // The plan, the run and its continuation after the wait.
    expect(jobs.map((j) => parseJobId(j.id!)?.kind).sort()).toEqual(['plan', 'run', 'run']);
    for (const j of jobs) {
      const data = JSON.stringify(j.data);
      expect(data).not.toMatch(/xoxb-|response_url|trigger_id|hooks\.slack|password/i);
    }
  });
});
