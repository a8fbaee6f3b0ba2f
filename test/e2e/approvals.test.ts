import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { approver, bystander, channel, requester, secondApprover, startStack, type Stack } from '../support/stack.js';

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);
const pods = { group: '', version: 'v1', plural: 'pods' };
const onCall = 'U0ONCALL';

describe('approval policy, expiry, cancel, concurrency and the audit trail', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack('approvals', {
      approvers: [approver, secondApprover],
      env: { PLATFORM_MEDIC_APPROVER_GROUPS: 'S0ONCALL', PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS: '3', PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR: '3' },
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

  it('lets a member of an approver user group approve, resolved through the Web API', async () => {
    stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await fix('fix git-sensor-stuck');
    expect(blocksText(card.blocks)).toMatch(/needs one approver · plan `\w+` · expires \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const refused = await stack.click(card, 'remedy-approve', bystander);
    expect(await refusalOf(refused.responseId)).toBe('Only the approvers of cluster `sim` can approve this: <@U0APPROVER>, <@U0APPROVER2>, <!subteam^S0ONCALL>.');
    await stack.click(card, 'remedy-approve', onCall);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('✅ Stage done')), { timeoutMs: 15_000 });
    expect(stack.fake.calls('usergroups.users.list').length).toBeGreaterThan(0);
  });

  it('refuses the requester\'s own approval of destructive steps (two-person rule), and takes another approver\'s', async () => {
    stack.sim.break('gitops-certificate-expired');
    const { rootTs, card } = await fix('fix gitops-certificate-expired', approver);
    expect(blocksText(card.blocks)).toContain('needs an approver other than the person who asked');
    const own = await stack.click(card, 'remedy-approve', approver);
    expect(await refusalOf(own.responseId)).toBe('This plan has destructive steps: it needs an approver other than the person who asked (two-person rule).');
    await stack.click(card, 'remedy-approve', secondApprover);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('✅ Stage done')), { timeoutMs: 30_000 });
    expect(stack.sim.symptoms()).not.toContain('gitops-certificate-expired');
  });

  it('tells a second request for the same entry who is already fixing it; cancels a remedy during its wait', async () => {
    stack.sim.break('build-logs');
    const { rootTs, card } = await fix('fix build-logs');
    // A second request while the first is open is told, in its own thread, what is running and by whom.
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    await stack.slash('fix build-logs', secondApprover);
    const second = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts)));
    const told = await stack.fake.waitFor((f) => f.thread(channel, second.ts).find((m) => m.text.includes('is already being fixed')));
    expect(told.text).toBe('`build-logs` is already being fixed on `sim` (asked by <@U0REQUESTER>, now awaiting-approval). Follow that remedy\'s thread, or cancel it first.');

    const mainBefore = stack.sim.list(pods, 'devtroncd', 'app=devtron').map((p) => p.metadata!.uid);
    await stack.click(card, 'remedy-approve', approver);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('⏳ Step 3 of 4')), { timeoutMs: 15_000 });
    const cardNow = stack.thread(rootTs).find((m) => m.ts === card.ts)!;
    await stack.click(cardNow, 'remedy-cancel', requester);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('🛑 Cancelled by <@U0REQUESTER>')));
    // The wait's continuation was removed: nothing more runs, and no decision is asked.
    await new Promise((r) => setTimeout(r, 3500));
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
      expect(fresh).toBeTruthy();
      expect(short.sim.requests().filter((r) => r.method === 'DELETE')).toHaveLength(0);
    } finally {
      await short.stop();
    }
  });

  it('limits how many fixes one person asks for in an hour', async () => {
    const user = 'U0EAGER';
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
      await stack.slash(`fix discover-no-charts`, user);
      const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts)));
      const reply = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => m.ts !== root.ts));
      answers.push(reply.text);
    }
    expect(answers[3]).toBe('You have asked for 3 fixes in the last hour, the most one person may; try again later.');
  });

  it('keeps an audit trail that approvers can read and others cannot, with no secrets in it', async () => {
    const denied = (await stack.slash('audit', bystander)).json as { text: string };
    expect(denied.text).toBe('Only approvers can read the audit trail.');
    const res = (await stack.slash('audit 50', approver)).json as { blocks: unknown };
    const text = blocksText(res.blocks);
    for (const action of ['requested', 'planned', 'approval-refused', 'approved', 'step', 'outcome', 'cancelled', 'refused']) expect(text).toContain(`*${action}*`);
    expect(text).toMatch(/<@U0ONCALL> · \*approved\* `git-sensor-stuck` on `sim`/);
    const secret = stack.sim.get({ group: '', version: 'v1', plural: 'secrets' }, 'devtroncd', 'devtron-secret') as { data: Record<string, string> };
    for (const v of Object.values(secret.data)) expect(text).not.toContain(Buffer.from(v, 'base64').toString());
  });
});

describe('thread updates within Slack\'s limits', () => {
  it('waits out 429s (Retry-After) and loses no message of a remedy', async () => {
    const stack = await startStack('ratelimit', { rateLimit: { burst: 2, perSecond: 2 } });
    try {
      stack.sim.break('git-sensor-stuck');
      await stack.slash('fix git-sensor-stuck');
      const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts), { timeoutMs: 10_000 });
      const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { timeoutMs: 15_000 });
      await stack.click(card, 'remedy-approve', approver);
      await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => m.text.startsWith('✅ Stage done')), { timeoutMs: 30_000 });
      const limited = stack.fake.calls('chat.postMessage').filter((c) => c.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      const texts = stack.thread(root.ts).map((m) => m.text);
      for (const expected of ['Approved by', '✅ Step 1 of 2', '✅ Step 2 of 2', '✅ Stage done']) expect(texts.join('\n')).toContain(expected);
    } finally {
      await stack.stop();
    }
  });
});
