import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { approver, channel, requestIdOf, startFix, startStack, type Stack } from '../support/stack.js';

/**
 * Verified after every fix (issue 12 item 8), through the real Bolt receiver and the fake Slack: when a
 * remedy's last stage ends, the entry's detector looks at the cluster again, and the thread says
 * "symptom cleared" or "still present: …" with what it saw. The simulator hides its fault annotation,
 * so the detector reads only what a real cluster shows.
 */
describe('the thread says whether the symptom is gone after a remedy', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack('verify', { hideMarkers: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const thread = (rootTs: string) => stack.thread(rootTs);
  const threadText = (rootTs: string) => thread(rootTs).map((m) => `${m.text}\n${blocksText(m.blocks)}`).join('\n');
  const rootOf = (rootTs: string) => stack.fake.messages(channel).find((m) => m.ts === rootTs)!;
  const audited = async (requestId: string) => (await stack.bot.coordinator.audit.latest(50)).filter((r) => r.requestId === requestId && r.action === 'verified').map((r) => r.detail);
  const verifications = async () => {
    const page = await (await fetch(stack.eventsUrl.replace('/slack/events', '/metrics'))).text();
    return Object.fromEntries([...page.matchAll(/^platform_medic_verifications_total\{result="([a-z-]+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
  };

  /** Asks for a read-only fix (no approval card: it runs at once); resolves with its root message. */
  async function readOnlyFix(entry: string): Promise<{ rootTs: string; requestId: string }> {
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    expect((await stack.slash(`fix ${entry}`)).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts) && m.text.includes(entry)), { what: `the root message of ${entry}` });
    const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => blocksText(m.blocks).includes('no approval needed')), { what: 'the read-only plan', timeoutMs: 15_000 });
    return { rootTs: root.ts, requestId: requestIdOf(card) };
  }
  const ended = (rootTs: string, test: (m: StoredMessage) => boolean, what: string) => stack.fake.waitFor((f) => f.thread(channel, rootTs).find(test), { what, timeoutMs: 30_000 });

  it('a restart that cures the symptom ends with "symptom cleared" and where the detector looked', async () => {
    await stack.sim.break('git-sensor-stuck');
    const { rootTs, card } = await startFix(stack, 'git-sensor-stuck');
    const requestId = requestIdOf(card);
    const before = await verifications();
    await stack.click(card, 'remedy-approve', approver);
    const end = await ended(rootTs, (m) => m.text.startsWith('✅ Stage done'), 'the end of the remedy');

    expect(end.text).toBe('✅ Stage done: every step finished. 🎉 Symptom cleared.');
    // While the detector looked, the thread said so, after the last step and before the end.
    const said = thread(rootTs).map((m) => m.text);
    const looking = said.findIndex((t) => /^🩺 Every step finished; the doctor is looking whether the symptom is gone \(again for up to \d+ s while it still shows\)\.$/.test(t));
    expect(looking, said.join('\n')).toBeGreaterThan(said.findLastIndex((t) => t.startsWith('✅ Step ')));
    expect(looking).toBeLessThan(said.findIndex((t) => t.startsWith('✅ Stage done')));
    expect(blocksText(end.blocks)).toMatch(/🎉 \*Symptom cleared\*: the doctor no longer sees it in `sim` \(1 look\)\. It read the last \d+ log lines of pod git-sensor-0 in devtroncd\./);
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.ts === rootTs && m.text.endsWith('✅ symptom cleared')), { what: 'the root marked cleared' });
    expect((await stack.bot.coordinator.store.get(requestId))?.status).toBe('resolved');
    expect(await audited(requestId)).toEqual([expect.stringMatching(/^symptom cleared \(1 look over \d+\.\d s\)$/)]);
    expect((await verifications())['cleared']).toBe((before['cleared'] ?? 0) + 1);
    expect(stack.sim.symptoms()).not.toContain('git-sensor-stuck');
  });

  it('a remedy that cannot fix the cause ends with "still present: …", the evidence, and no claim of resolution', async () => {
    // The chart's argument is the person's to add: the stage's steps all finish, the deployment still lacks it.
    await stack.sim.break('metrics-server-tls');
    const before = await verifications();
    const { rootTs, requestId } = await readOnlyFix('metrics-server-tls');
    const end = await ended(rootTs, (m) => m.text.startsWith('⚠️ Still present'), 'the end of the remedy');

    expect(end.text).toMatch(/^⚠️ Still present: deployment\/\S+\/metrics-server /);
    const shown = blocksText(end.blocks);
    expect(shown).toMatch(/⚠️ \*Still present\*: every step finished, but the doctor still sees the symptom in `sim` after \d+ looks over \d+\.\d s:/);
    expect(shown).toContain('--kubelet-insecure-tls');
    expect(shown).toContain('Not resolved. Do the steps marked "Your turn", then run the doctor again.');
    const all = threadText(rootTs);
    expect(all).not.toMatch(/Stage done|Resolved|Symptom cleared|🎉/);
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.ts === rootTs && m.text.endsWith('⚠️ still present')), { what: 'the root marked still present' });
    expect(rootOf(rootTs).text).not.toContain('done');
    const request = await stack.bot.coordinator.store.get(requestId);
    expect(request?.status).toBe('not-resolved');
    expect(request?.outcome).toMatch(/^still present after \d+ looks over \d+\.\d s: deployment\//);
    expect(await audited(requestId)).toEqual([expect.stringMatching(/^still present after \d+ looks/)]);
    expect((await verifications())['still-present']).toBe((before['still-present'] ?? 0) + 1);
    expect(stack.sim.symptoms()).toContain('metrics-server-tls');
  });

  it('an entry the cluster cannot show keeps "every step finished", and says so in one line', async () => {
    const { rootTs, requestId } = await readOnlyFix('stale-session-cookie');
    const end = await ended(rootTs, (m) => m.text.startsWith('✅ Stage done'), 'the end of the remedy');

    expect(end.text).toBe('✅ Stage done: every step finished.');
    expect(blocksText(end.blocks)).toMatch(/🩺 The cluster does not show this symptom; check it yourself: \S/);
    expect(threadText(rootTs)).not.toMatch(/Symptom cleared|Still present|the doctor is looking/);
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.ts === rootTs && m.text.endsWith('✅ done')), { what: 'the root marked done' });
    expect((await stack.bot.coordinator.store.get(requestId))?.status).toBe('resolved');
    expect(await audited(requestId)).toEqual(['not observable from the cluster']);
  });
});
