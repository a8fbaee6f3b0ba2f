import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { approver, bystander, channel, eventually, jobsOf, requestIdOf, requester, secondApprover, startStack, workerPolicy, type Stack } from '../support/stack.js';

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);
const pods = { group: '', version: 'v1', plural: 'pods' };
const onCall = 'U0ONCALL';
/** The approver of the second cluster, `other`, and of no other. */
const otherApprover = 'U0OTHERAPPROVER';

describe('approval policy, expiry, cancel, concurrency and the audit trail', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack('approvals', {
      approvers: [approver, secondApprover],
      env: { PLATFORM_MEDIC_APPROVER_GROUPS: 'S0ONCALL', PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS: '3', PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR: '3' },
      extraClusters: [{ name: 'other', approvers: [otherApprover] }],
    });
    stack.fake.setUserGroup('S0ONCALL', [onCall]);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function fix(text: string, user = requester): Promise<{ rootTs: string; card: StoredMessage }> {
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    expect((await stack.slash(text, user)).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts)));
    const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { timeoutMs: 15_000 });
    return { rootTs: root.ts, card };
  }
  const refusalOf = async (responseId: string) => String((await stack.fake.waitFor((f) => f.responses(responseId)[0])).body.text);
  /** The answer only the person saw; nothing about their request was posted in public. */
  async function privately(text: string, user: string, responseId: string): Promise<Record<string, unknown>> {
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    await stack.slash(text, user, { responseId });
    const answer = await stack.fake.waitFor((f) => f.responses(responseId)[0]);
    const posted = stack.fake.messages(channel).filter((m) => !before.has(m.ts));
    expect(posted.filter((m) => m.text.includes(`<@${user}> asked`) || m.text === answer.body.text)).toEqual([]);
    return answer.body;
  }

  it('lets a member of an approver user group approve, resolved through the Web API', async () => {
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await fix('fix git-sensor-stuck');
    expect(blocksText(card.blocks)).toMatch(/needs one approver · plan `\w+` · expires \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const refused = await stack.click(card, 'remedy-approve', bystander);
    expect(await refusalOf(refused.responseId)).toBe('Only the approvers of cluster `sim` can approve this: <@U0APPROVER>, <@U0APPROVER2>, <!subteam^S0ONCALL>.');
    await stack.click(card, 'remedy-approve', onCall);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('✅ Stage done')), { timeoutMs: 15_000 });
    expect(stack.fake.calls('usergroups.users.list').length).toBeGreaterThan(0);
  });

  it('refuses the requester\'s own approval of destructive steps (two-person rule), and takes another approver\'s', async () => {
    await stack.sim.break('gitops-certificate-expired');
    const { rootTs, card } = await fix('fix gitops-certificate-expired', approver);
    expect(blocksText(card.blocks)).toContain('needs an approver other than the person who asked');
    const own = await stack.click(card, 'remedy-approve', approver);
    expect(await refusalOf(own.responseId)).toBe('This plan has destructive steps: it needs an approver other than the person who asked (two-person rule).');
    await stack.click(card, 'remedy-approve', secondApprover);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('✅ Stage done')), { timeoutMs: 30_000 });
    expect(stack.sim.symptoms()).not.toContain('gitops-certificate-expired');
  });

  it('tells a second request for the same entry who is already fixing it; cancels a remedy during its wait', async () => {
    await stack.sim.break('build-logs');
    const { rootTs, card } = await fix('fix build-logs');
    // A second request while the first is open is told, only them, what is running and by whom; nothing is posted.
    expect(await privately('fix build-logs', secondApprover, 'busy-build-logs')).toMatchObject({
      response_type: 'ephemeral',
      text: `\`build-logs\` is already being fixed on \`sim\` (asked by <@U0REQUESTER>, now awaiting approval). Follow that remedy's thread, or cancel it first (\`/platform cancel ${requestIdOf(card)}\`: the person who asked or an approver of \`sim\`).`,
    });

    const mainBefore = stack.sim.list(pods, 'devtroncd', 'app=devtron').map((p) => p.metadata!.uid);
    const requestId = requestIdOf(card);
    await stack.click(card, 'remedy-approve', approver);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('⏳ Step 3 of 4')), { timeoutMs: 15_000 });
    // The rest of the stage waits in the queue, as a continuation due when the wait ends.
    const continuation = await eventually(async () => (await jobsOf(stack, requestId, ['delayed']))[0], { what: 'the delayed continuation' });
    const cardNow = stack.thread(rootTs).find((m) => m.ts === card.ts)!;
    await stack.click(cardNow, 'remedy-cancel', requester);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('🛑 Cancelled by <@U0REQUESTER>')));
    // The wait's continuation was removed: no job of the remedy is left to run, so nothing more runs and no decision is asked.
    expect(await stack.queue.getJob(continuation.id!)).toBeUndefined();
    expect((await jobsOf(stack, requestId, ['waiting', 'delayed', 'active'])).map((j) => j.id)).toEqual([]);
    expect((await stack.bot.coordinator.store.get(requestId))?.status).toBe('cancelled');
    expect(stack.thread(rootTs).some((m) => m.text.includes('Step 4 of 4'))).toBe(false);
    expect(stack.sim.list(pods, 'devtroncd', 'app=devtron').map((p) => p.metadata!.uid)).not.toEqual(mainBefore);
    expect(blocksText(stack.thread(rootTs).find((m) => m.ts === card.ts)!.blocks)).toContain('cancelled by <@U0REQUESTER>');
  });

  it('expires an approval that nobody gave in time, and plans again on request', async () => {
    const short = await startStack('expiry', { env: { PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES: '0.01' } });
    try {
      const before = new Set(short.fake.messages(channel).map((m) => m.ts));
      await short.slash('fix git-sensor-stuck');
      const root = await short.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts)));
      const card = await short.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { timeoutMs: 15_000 });
      const stale = structuredClone(card);
      // Nobody clicks: the card says by itself that the approval expired, with a fresh plan one click away.
      const expired = await short.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => m.text.startsWith('⌛')), { timeoutMs: 10_000 });
      expect(blocksText(short.thread(root.ts).find((m) => m.ts === card.ts)!.blocks)).toContain('expired');
      // A person whose Slack still shows the old card clicks its Approve button.
      const late = await short.click(stale, 'remedy-approve', approver);
      expect(String((await short.fake.waitFor((f) => f.responses(late.responseId)[0])).body.text)).toBe('This approval expired; nothing was done. Use "Plan again" for a fresh plan.');
      await short.click(expired, 'remedy-replan', requester);
      const fresh = await short.fake.waitFor((f) => f.thread(channel, root.ts).filter((m) => hasButton(m, 'remedy-approve')).find((m) => m.ts !== card.ts), { timeoutMs: 15_000 });
      // The fresh card is one to approve, with an expiry of its own; the old card stays expired.
      expect(blocksText(fresh.blocks)).toMatch(/needs one approver · plan `\w+` · expires \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(blocksText(fresh.blocks)).not.toContain('expired');
      expect(blocksText(short.thread(root.ts).find((m) => m.ts === card.ts)!.blocks)).toContain('expired');
      expect(short.sim.requests().filter((r) => r.method === 'DELETE')).toHaveLength(0);
    } finally {
      await short.stop();
    }
  });

  it('keeps an audit trail that approvers can read and others cannot, with no secrets in it', async () => {
    // Given a remedy asked for, refused to a second person, refused to a bystander's approval and cancelled;
    // and another asked for again, approved by a member of the approver group and run.
    const asker = 'U0AUDITED';
    await stack.sim.break('git-sensor-stuck');
    const cancelled = await fix('fix git-sensor-stuck', asker);
    expect(String((await privately('fix git-sensor-stuck', 'U0AUDITED2', 'audit-busy')).text)).toContain('is already being fixed');
    expect(await refusalOf((await stack.click(cancelled.card, 'remedy-approve', bystander)).responseId)).toContain('Only the approvers of cluster `sim`');
    await stack.click(cancelled.card, 'remedy-cancel', asker);
    await stack.fake.waitFor((f) => f.thread(channel, cancelled.rootTs).find((m) => m.text.startsWith('🛑 Cancelled by <@U0AUDITED>')));
    const approved = await fix('fix git-sensor-stuck', asker);
    await stack.click(approved.card, 'remedy-approve', onCall);
    await stack.fake.waitFor((f) => f.thread(channel, approved.rootTs).find((m) => m.text.startsWith('✅ Stage done')), { timeoutMs: 15_000 });

    const denied = (await stack.slash('audit', bystander)).json as { text: string };
    expect(denied.text).toBe('Only approvers can read the audit trail.');
    const res = (await stack.slash('audit 50', approver)).json as { blocks: unknown };
    const text = blocksText(res.blocks);
    for (const action of ['requested', 'planned', 'approval-refused', 'approved', 'step', 'outcome', 'cancelled', 'refused']) expect(text).toContain(`*${action}*`);
    expect(text).toMatch(/<@U0ONCALL> · \*approved\* `git-sensor-stuck` on `sim`/);
    const secret = stack.sim.get({ group: '', version: 'v1', plural: 'secrets' }, 'devtroncd', 'devtron-secret') as { data: Record<string, string> };
    for (const v of Object.values(secret.data)) expect(text).not.toContain(Buffer.from(v, 'base64').toString());
  });

  it('limits how many fixes one person asks for in an hour, privately, and does not count refused requests', async () => {
    const user = 'U0EAGER';
    await stack.sim.break('git-sensor-stuck');
    const held = await fix('fix git-sensor-stuck', secondApprover);
    // Three requests refused because the entry is busy do not use up the person's hour.
    for (let i = 0; i < 3; i++) expect(String((await privately('fix git-sensor-stuck', user, `eager-busy-${i}`)).text)).toContain('is already being fixed');
    await stack.click(held.card, 'remedy-deny', secondApprover);
    for (const entry of ['discover-no-charts', 'upload-too-large', 'terminal-disconnects']) {
      const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
      await stack.slash(`fix ${entry}`, user, { responseId: `eager-${entry}` });
      await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts) && m.text.includes(entry)), { what: `the root of ${entry}` });
      expect(stack.fake.responses(`eager-${entry}`)).toEqual([]);
    }
    expect(await privately('fix sso-login', user, 'eager-fourth')).toMatchObject({ response_type: 'ephemeral', text: 'You have asked for 3 fixes in the last hour, the most one person may; try again later.' });
  });

  it('answers fifty concurrent fixes from one person with at most their limit of public posts, and every refusal only to them', async () => {
    const user = 'U0FLOOD';
    const entries = ['app-metrics-absent', 'cpu-graphs-empty', 'sso-login', 'stale-session-cookie', 'chart-repo-tls-handshake'];
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    const ids = Array.from({ length: 50 }, (_, i) => `flood-${i}`);
    const sent = await Promise.all(ids.map((id, i) => stack.slash(`fix ${entries[i % entries.length]}`, user, { responseId: id })));
    expect(sent.every((r) => r.status === 200)).toBe(true);
    // A root message with replies carries its own ts as thread_ts, as in Slack.
    const roots = () => stack.fake.messages(channel).filter((m) => (!m.thread_ts || m.thread_ts === m.ts) && !before.has(m.ts));
    const answered = () => ids.filter((id) => stack.fake.responses(id).length > 0);
    await stack.fake.waitFor(() => roots().length + answered().length >= 50, { what: 'an answer to every request', timeoutMs: 20_000 });
    expect(roots().length).toBeGreaterThanOrEqual(1);
    expect(roots().length).toBeLessThanOrEqual(3);
    expect(roots().length + answered().length).toBe(50);
    for (const id of answered()) {
      const [answer, ...more] = stack.fake.responses(id);
      expect(more).toEqual([]);
      expect(answer!.body.response_type).toBe('ephemeral');
      expect(String(answer!.body.text)).toMatch(/is already being fixed on `sim`|You have asked for 3 fixes in the last hour/);
    }
    const publicTexts = stack.fake.messages(channel).filter((m) => !before.has(m.ts)).map((m) => m.text);
    expect(publicTexts.filter((t) => /already being fixed|fixes in the last hour/.test(t))).toEqual([]);
  });

  it('lets only the person who asked and the approvers plan a remedy again, within the person\'s hourly limit', async () => {
    const asker = 'U0ASKER';
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await fix('fix git-sensor-stuck', asker);
    // The delete is forbidden: the run fails and changes nothing, and the thread offers "Plan again".
    stack.sim.setPolicy(workerPolicy({ podDeletes: false }));
    try {
      await stack.click(card, 'remedy-approve', approver);
      await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => hasButton(m, 'remedy-replan')), { what: 'the failure', timeoutMs: 30_000 });
    } finally {
      stack.sim.setPolicy(workerPolicy());
    }
    const failure = stack.thread(rootTs).find((m) => hasButton(m, 'remedy-replan'))!;
    const threadBefore = stack.thread(rootTs).length;
    const pressed = await stack.click(failure, 'remedy-replan', bystander);
    expect(await refusalOf(pressed.responseId)).toBe('Only the person who asked (<@U0ASKER>) or an approver of `sim` can plan this remedy again.');
    // The asker uses up their hour; "Plan again" counts like a fix, so theirs is refused too.
    for (const entry of ['discover-no-charts', 'upload-too-large']) {
      const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
      await stack.slash(`fix ${entry} other`, asker);
      await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts)), { what: `the root of ${entry}` });
    }
    const own = await stack.click(failure, 'remedy-replan', asker);
    expect(await refusalOf(own.responseId)).toBe('You have asked for 3 fixes in the last hour, the most one person may; try again later.');
    expect(stack.thread(rootTs)).toHaveLength(threadBefore);
    // The bystander's press is in the audit trail.
    const audit = blocksText(((await stack.slash('audit 100', approver)).json as { blocks: unknown }).blocks);
    expect(audit).toMatch(/<@U0BYSTANDER> · \*action-refused\* `git-sensor-stuck` on `sim` \(\w+\) — plan this remedy again/);
    // An approver may plan it again.
    const byApprover = await stack.click(failure, 'remedy-replan', approver);
    const fresh = await stack.fake.waitFor((f) => f.thread(channel, rootTs).filter((m) => hasButton(m, 'remedy-approve')).find((m) => m.ts !== card.ts), { what: 'the new card', timeoutMs: 15_000 });
    expect(stack.fake.responses(byApprover.responseId)).toEqual([]);
    await stack.click(fresh, 'remedy-deny', asker);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('🚫')));
  });

  it('lets only the person who asked and the approvers answer the guide\'s question', async () => {
    const asker = 'U0ASKER2';
    await stack.sim.break('build-logs');
    const { rootTs, card } = await fix('fix build-logs', asker);
    await stack.click(card, 'remedy-approve', approver);
    const question = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => hasButton(m, 'remedy-choose')), { what: 'the question', timeoutMs: 30_000 });
    const pressed = await stack.click(question, 'remedy-choose-fixed', bystander);
    expect(await refusalOf(pressed.responseId)).toBe('Only the person who asked (<@U0ASKER2>) or an approver of `sim` can answer "Are the build logs visible now?".');
    const other = await stack.click(question, 'remedy-choose-still-failing', bystander);
    expect(await refusalOf(other.responseId)).toContain('can answer');
    expect(stack.thread(rootTs).some((m) => /Resolved|Planning/.test(m.text))).toBe(false);
    await stack.click(question, 'remedy-choose-fixed', asker);
    const end = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('🎉 Resolved')));
    expect(end.text).toContain('(answered by <@U0ASKER2>)');
    const audit = blocksText(((await stack.slash('audit 100', approver)).json as { blocks: unknown }).blocks);
    expect(audit).toMatch(/<@U0BYSTANDER> · \*action-refused\* `build-logs` on `sim` \(\w+\) — answer "Are the build logs visible now\?"/);
  });

  it('shows each approver the audit records of the clusters they approve on, and no other cluster\'s', async () => {
    const asker = 'U0ASKER3';
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    await stack.slash('fix sso-login other', asker);
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts)), { what: 'the root on other' });
    // Refused because that fix is open: its record is written before the person is answered.
    expect(String((await privately('fix sso-login other', asker, 'other-busy')).text)).toContain('is already being fixed on `other`');
    const mine = blocksText(((await stack.slash('audit 100', approver)).json as { blocks: unknown }).blocks);
    expect(mine).not.toContain('on `other`');
    expect(mine).toContain('on `sim`');
    const theirs = blocksText(((await stack.slash('audit 100', otherApprover)).json as { blocks: unknown }).blocks);
    expect(theirs).toMatch(/\*Audit trail\* of `other`/);
    expect(theirs).toContain('<@U0ASKER3> · *refused* `sso-login` on `other`');
    expect(theirs).not.toContain('on `sim`');
  });
});

describe('thread updates within Slack\'s limits', () => {
  it('waits out 429s (Retry-After) and loses no message of a remedy', async () => {
    const stack = await startStack('ratelimit', { rateLimit: { burst: 2, perSecond: 2 } });
    try {
      await stack.sim.break('git-sensor-stuck');
      await stack.slash('fix git-sensor-stuck');
      const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts), { timeoutMs: 10_000 });
      const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { timeoutMs: 15_000 });
      await stack.click(card, 'remedy-approve', approver);
      await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => m.text.startsWith('✅ Stage done')), { timeoutMs: 30_000 });
      const limited = stack.fake.calls('chat.postMessage').filter((c) => c.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      const texts = stack.thread(root.ts).map((m) => m.text);
      for (const expected of ['Approved by', '✅ Step 1 of 2', '👉 Step 2 of 2: Your turn', '✅ Stage done']) expect(texts.join('\n')).toContain(expected);
    } finally {
      await stack.stop();
    }
  });
});
