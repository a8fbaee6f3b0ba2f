import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { approver, bystander, channel, endRemedy, eventually, FAKE_WORKSPACE, requestIdOf, requester, startFix, startStack, type Stack } from '../support/stack.js';

/** `2026-11-21 13:04 UTC`, as the answers write a time. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
/** The permalink the fake Slack gives for a message of the test channel (as Slack's chat.getPermalink does). */
const permalink = (ts: string) => `https://${FAKE_WORKSPACE.teamDomain}.slack.com/archives/${channel}/p${ts.replace('.', '')}`;

describe('/platform status through the real Bolt receiver and the fake Slack', () => {
  let stack: Stack;
  const opened: string[] = [];

  beforeAll(async () => {
    stack = await startStack('status', { hideMarkers: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** What `/platform status` showed the person, privately, in the acknowledgement. */
  async function status(user: string, text = 'status'): Promise<string> {
    const res = await stack.slash(text, user);
    expect(res.status).toBe(200);
    const body = res.json as { response_type: string; text: string; blocks: unknown };
    expect(body.response_type).toBe('ephemeral');
    return blocksText(body.blocks);
  }

  it('before anything: no remedy, and the doctor has never run', async () => {
    const text = await status(bystander);
    expect(text).toContain('*Open remedies* (0)');
    expect(text).toContain('No open remedy of yours.');
    expect(text).toContain('`sim`: the doctor has never run here. `/platform doctor sim` checks it.');
  });

  it('shows an approver a remedy awaiting approval and one running, with who asked, the entry, since when and the thread; others see their own alone', async () => {
    const waiting = await startFix(stack, 'git-sensor-stuck');
    const running = await startFix(stack, 'build-logs');
    const [waitingId, runningId] = [requestIdOf(waiting.card), requestIdOf(running.card)];
    opened.push(waitingId, runningId);
    // With no worker to take its run, an approved remedy stays running for as long as the test looks.
    await stack.killWorker();
    await stack.click(running.card, 'remedy-approve', approver);
    const store = stack.bot.coordinator.store;
    await eventually(async () => (await store.get(runningId))?.status === 'running', { what: 'build-logs running' });
    // The bystander asks for a fix of their own; with no worker it stays planning.
    expect((await stack.slash('fix metrics-server-tls', bystander)).status).toBe(200);
    const theirs = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && m.text.startsWith(`<@${bystander}> asked to fix`)));
    const theirId = (await eventually(async () => (await store.open()).find((r) => r.requestedBy === bystander), { what: "the bystander's remedy" })).id;
    opened.push(theirId);

    const since = async (id: string) => when((await store.get(id))!.since!);
    const waitingLine = `\`git-sensor-stuck\` on \`sim\` · *awaiting approval* since ${await since(waitingId)} · asked by <@${requester}> · <${permalink(waiting.rootTs)}|thread> · _${waitingId}_`;
    const runningLine = `\`build-logs\` on \`sim\` · *running* since ${await since(runningId)} · asked by <@${requester}> · <${permalink(running.rootTs)}|thread> · _${runningId}_`;
    const theirLine = `\`metrics-server-tls\` on \`sim\` · *planning* since ${await since(theirId)} · asked by <@${bystander}> · <${permalink(theirs.ts)}|thread> · _${theirId}_`;

    const approverSees = await status(approver);
    expect(approverSees).toContain('*Open remedies* (3)');
    for (const line of [waitingLine, runningLine, theirLine]) expect(approverSees).toContain(line);
    expect(approverSees).toContain('You approve on every cluster: you see every open remedy.');

    const requesterSees = await status(requester);
    expect(requesterSees).toContain('*Open remedies* (2)');
    expect(requesterSees).toContain(waitingLine);
    expect(requesterSees).toContain(runningLine);
    expect(requesterSees).not.toContain('metrics-server-tls');

    const bystanderSees = await status(bystander);
    expect(bystanderSees).toContain('*Open remedies* (1)');
    expect(bystanderSees).toContain(theirLine);
    expect(bystanderSees).not.toContain('git-sensor-stuck');
    expect(bystanderSees).toContain('You see your own remedies; approvers see every remedy of their clusters.');
  });

  it('after /platform doctor, shows everyone its result and its time; ended remedies leave the list', async () => {
    for (const id of opened.splice(0)) await endRemedy(stack, id);
    expect(await status(approver)).toContain('*Open remedies* (0)');
    await stack.startWorker();
    await stack.sim.break('rollout-invalid-json');
    const before = new Date();
    await stack.slash('doctor', requester, { responseId: 'status-doctor' });
    await stack.fake.waitFor((f) => f.responses('status-doctor')[0], { timeoutMs: 20_000 });
    const after = new Date();

    const text = await status(bystander);
    const shown = /`sim`: \*1 symptom\* present at the last doctor \((\d{4}-\d\d-\d\d \d\d:\d\d UTC), asked by <@U0REQUESTER>, \d+ entries in [\d.]+ m?s\):/.exec(text);
    expect(shown, text).not.toBeNull();
    expect([when(before.toISOString()), when(after.toISOString())]).toContain(shown![1]);
    expect(text).toMatch(/• `rollout-invalid-json` \(guide 7\.25\) — rollout\/devtroncd\/payments-api kubectl\.kubernetes\.io\/last-applied-configuration is not valid JSON/);
  });

  it('answers an unknown cluster with the one wording, privately', async () => {
    const res = await stack.slash('status prod-us', bystander);
    expect(res.json as { response_type: string; text: string }).toMatchObject({ response_type: 'ephemeral', text: 'There is no cluster `prod-us`. Configured clusters: `sim`.' });
  });
});
