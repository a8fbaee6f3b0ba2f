import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { approver, bystander, channel, endRemedy, eventually, requester, requestIdOf, secondApprover, startStack, workerPolicy, workerSubject, type Stack } from '../support/stack.js';

/** The scheduled doctor's channel: apart from the one the slash commands use, so what it posts is all there is. */
const watchChannel = 'C0DOCTORWATCH';
/** The interval of the tests: every second (the test-only override of `doctor.everyMinutes`). */
const everySeconds = 1;

describe('the scheduled doctor through the real Bolt receiver and the fake Slack', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('watch', { hideMarkers: true, doctorChannel: watchChannel, env: { PLATFORM_MEDIC_DOCTOR_EVERY_OVERRIDE_SECONDS: String(everySeconds) } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const scans = () => stack.bot.watch!.scans('sim');
  /** Waits until `n` more scans ran to the end (their posts made): what could have been posted, was. */
  async function afterScans(n: number): Promise<void> {
    const from = await scans();
    await eventually(async () => (await scans()) >= from + n, { what: `${n} more scans`, timeoutMs: 30_000 });
  }
  const topLevel = () => stack.fake.messages(watchChannel).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  const postsAbout = (entry: string) => topLevel().filter((m) => m.text.startsWith('New on sim:') && m.text.includes(`(${entry})`));
  const thread = (m: StoredMessage) => stack.fake.thread(watchChannel, m.ts).filter((r) => r.ts !== m.ts);
  const post = (entry: string) => stack.fake.waitFor(() => postsAbout(entry)[0], { timeoutMs: 20_000 });
  const refusalOf = async (responseId: string) => String((await stack.fake.waitFor((f) => f.responses(responseId)[0])).body.text);

  it('says once that it watches; a symptom appearing gets one post with its evidence, Plan fix and Snooze, not repeated while it stays; its remedy clears it in the thread', async () => {
    const started = await stack.fake.waitFor(() => topLevel().find((m) => m.text.startsWith('The scheduled doctor watches sim')));
    expect(started.text).toBe('The scheduled doctor watches sim: no symptom present');
    expect(blocksText(started.blocks)).toContain(`every ${everySeconds} s and posts here only what changes`);

    await stack.sim.break('rollout-invalid-json');
    const posted = await post('rollout-invalid-json');
    const text = blocksText(posted.blocks);
    expect(text).toContain('*New*: *Rollout');
    expect(text).toMatch(/`rollout\/devtroncd\/payments-api` kubectl\.kubernetes\.io\/last-applied-configuration is not valid JSON/);
    const buttons = JSON.stringify(posted.blocks);
    expect(buttons).toContain('"action_id":"match-plan-fix"');
    expect(buttons).toContain('"action_id":"doctor-snooze"');

    await afterScans(2);
    expect(postsAbout('rollout-invalid-json')).toHaveLength(1);
    expect(topLevel().filter((m) => m.text.startsWith('The scheduled doctor watches'))).toHaveLength(1);

    // The remedy is planned from the post, in its thread, and approved; the next scan sees it cleared.
    await stack.click(posted, 'match-plan-fix', requester, { channel: watchChannel });
    const card = await stack.fake.waitFor(() => thread(posted).find((m) => JSON.stringify(m.blocks ?? []).includes('"action_id":"remedy-approve')), { timeoutMs: 15_000 });
    const requestId = requestIdOf(card);
    await stack.click(card, 'remedy-approve', approver, { channel: watchChannel });
    const cleared = await stack.fake.waitFor(() => thread(posted).find((m) => m.text.startsWith('✅ Cleared at')), { timeoutMs: 20_000 });
    expect(cleared.text).toMatch(new RegExp(`^✅ Cleared at \\d\\d:\\d\\d UTC, after remedy \`${requestId}\` by <@${requester}>: \\*Rollout.*\\(\`rollout-invalid-json\`\\) is no longer present in \`sim\`\\.$`));
    await afterScans(2);
    expect(thread(posted).filter((m) => m.text.startsWith('✅ Cleared at'))).toHaveLength(1);

    // Back within the hour: said in the same thread with its evidence, not in a new post.
    await stack.sim.break('rollout-invalid-json');
    const again = await stack.fake.waitFor(() => thread(posted).find((m) => m.text.startsWith('⚠️ Present again at')), { timeoutMs: 20_000 });
    expect(again.text).toMatch(/^⚠️ Present again at \d\d:\d\d UTC: \*Rollout.*\(`rollout-invalid-json`\) in `sim`\.$/);
    expect(blocksText(again.blocks)).toMatch(/`rollout\/devtroncd\/payments-api` kubectl\.kubernetes\.io\/last-applied-configuration is not valid JSON/);
    await afterScans(2);
    expect(postsAbout('rollout-invalid-json')).toHaveLength(1);
    // Fixed again from the same post: its second clearing goes to the same thread, credited to the second remedy.
    await stack.click(posted, 'match-plan-fix', requester, { channel: watchChannel });
    const again2 = await stack.fake.waitFor(() => thread(posted).find((m) => m.ts !== card.ts && JSON.stringify(m.blocks ?? []).includes('"action_id":"remedy-approve')), { timeoutMs: 15_000 });
    const secondId = requestIdOf(again2);
    await stack.click(again2, 'remedy-approve', approver, { channel: watchChannel });
    const second = await stack.fake.waitFor(() => thread(posted).filter((m) => m.text.startsWith('✅ Cleared at'))[1], { timeoutMs: 20_000 });
    expect(second.text).toContain(`after remedy \`${secondId}\``);
  });

  /** The post with its one button replaced by a Snooze whose value is `value`: what a forged click sends. */
  const forged = (m: StoredMessage, value: unknown): StoredMessage => ({
    ...m,
    blocks: [{ type: 'actions', block_id: 'forged', elements: [{ type: 'button', action_id: 'doctor-snooze', value: typeof value === 'string' ? value : JSON.stringify(value), text: { type: 'plain_text', text: 'Snooze 24 h' } }] }],
  });
  const snoozeAs = async (m: StoredMessage, user: string, from = watchChannel) => (await stack.click(m, 'doctor-snooze', user, { channel: from })).responseId;

  it('refuses a bystander\'s Snooze and forged ones privately and specifically; the approver\'s and the fix\'s requester\'s silence their symptom: no clearing, no new post', async () => {
    await stack.sim.break('gitops-certificate-expired');
    const posted = await post('gitops-certificate-expired');

    expect(await refusalOf(await snoozeAs(posted, bystander))).toBe('Only an approver of `sim` or the person who asked to fix `gitops-certificate-expired` there can snooze it; nothing was done.');
    expect(await refusalOf(await snoozeAs(posted, approver, channel))).toBe("This button belongs to the scheduled doctor's posts about `sim` in another channel; nothing was done.");
    expect(await refusalOf(await snoozeAs(forged(posted, { e: 'build-logs', c: 'sim' }), approver))).toBe('`build-logs` is not present on `sim` any more (or was never announced there), so there is nothing to snooze.');
    expect(await refusalOf(await snoozeAs(forged(posted, { e: 'gitops-certificate-expired', c: 'prod-us' }), approver))).toBe('This button names a cluster the scheduled doctor does not watch; nothing was done.');
    expect(await refusalOf(await snoozeAs(forged(posted, { e: 'no-such-entry', c: 'sim' }), approver))).toBe('This button names an entry the scheduled doctor does not watch; nothing was done.');
    for (const value of ['{"e":"<!channel>","c":"sim"}', 'not json', { e: 'gitops-certificate-expired' }]) {
      expect(await refusalOf(await snoozeAs(forged(posted, value), approver))).toBe('This button is malformed; nothing was done.');
    }
    expect(thread(posted).filter((m) => m.text.startsWith('🔕'))).toEqual([]);

    await snoozeAs(posted, approver);
    const snoozed = await stack.fake.waitFor(() => thread(posted).find((m) => m.text.startsWith('🔕')));
    expect(snoozed.text).toMatch(/^🔕 Snoozed by <@U0APPROVER> until \d{4}-\d\d-\d\d \d\d:\d\d UTC: the scheduled doctor says nothing more about `gitops-certificate-expired` on `sim` until then\.$/);
    expect(await refusalOf(await snoozeAs(posted, secondApprover))).toMatch(/^`gitops-certificate-expired` is already snoozed on `sim` by <@U0APPROVER> until \d\d:\d\d UTC\.$/);

    // The person who asked to fix a symptom may snooze it too (not an approver).
    await stack.sim.break('database-image-pull');
    const other = await post('database-image-pull');
    expect(await refusalOf(await snoozeAs(other, requester))).toContain('Only an approver of `sim` or the person who asked to fix `database-image-pull`');
    await stack.click(other, 'match-plan-fix', requester, { channel: watchChannel });
    const card = await stack.fake.waitFor(() => thread(other).find((m) => JSON.stringify(m.blocks ?? []).includes('"action_id":"remedy-approve')), { timeoutMs: 15_000 });
    await snoozeAs(other, requester);
    await stack.fake.waitFor(() => thread(other).find((m) => m.text.startsWith('🔕 Snoozed by <@U0REQUESTER>')));
    await endRemedy(stack, requestIdOf(card));

    // Both clear, and come back: nothing is said about either while snoozed.
    stack.sim.heal();
    await afterScans(2);
    await stack.sim.break('gitops-certificate-expired');
    await stack.sim.break('database-image-pull');
    await afterScans(2);
    for (const [entry, m] of [['gitops-certificate-expired', posted], ['database-image-pull', other]] as const) {
      expect(thread(m).filter((r) => r.text.startsWith('✅ Cleared')), entry).toEqual([]);
      expect(postsAbout(entry), entry).toHaveLength(1);
    }
  });

  it('when its record in Redis is lost, says so once and lists what is present in one message, instead of posting each symptom again', async () => {
    const redis = new Redis(stack.config.redisUrl);
    try {
      const key = (part: string) => `${stack.config.queuePrefix}:watch:sim:${part}`;
      // Between two scans (under their lock), as an emptied Redis would: every record of the watch goes.
      await eventually(async () => (await redis.set(key('lock'), 'test', 'PX', 10_000, 'NX')) === 'OK', { what: 'the scan lock' });
      await deletePrefix(redis, `${stack.config.queuePrefix}:watch`);
    } finally {
      redis.disconnect();
    }
    const restarted = await stack.fake.waitFor(() => topLevel().filter((m) => m.text.startsWith('The scheduled doctor watches sim'))[1], { timeoutMs: 20_000 });
    expect(restarted.text).toBe('The scheduled doctor watches sim: database-image-pull, gitops-certificate-expired');
    expect(blocksText(restarted.blocks)).toContain('It has no record of earlier posts about `sim` (its first scan, or its record in Redis was lost), so the 2 symptoms present now are listed here once, not posted again:');
    await afterScans(2);
    expect(postsAbout('gitops-certificate-expired')).toHaveLength(1);
    expect(postsAbout('database-image-pull')).toHaveLength(1);
    expect(topLevel().filter((m) => m.text.startsWith('The scheduled doctor watches sim'))).toHaveLength(2);
  });

  it('says once that it could not run (every read refused, then no worker answering) and once that it runs again, never at every interval', async () => {
    stack.sim.setPolicy({ subject: workerSubject, clusterRules: [], namespaceRules: {} });
    const down = await stack.fake.waitFor(() => topLevel().find((m) => m.text === 'The doctor could not run on sim'), { timeoutMs: 20_000 });
    expect(blocksText(down.blocks)).toMatch(/could not run on\* `sim`: no check could read the cluster \(forbidden: Permission missing for /);
    await afterScans(2);
    expect(topLevel().filter((m) => m.text === 'The doctor could not run on sim')).toHaveLength(1);
    stack.sim.setPolicy(workerPolicy());
    const up = await stack.fake.waitFor(() => thread(down).find((m) => m.text.startsWith('✅ The doctor runs again')), { timeoutMs: 20_000 });
    expect(up.text).toMatch(/^✅ The doctor runs again on `sim` \(\d\d:\d\d UTC\); it could not since \d\d:\d\d UTC\.$/);

    await stack.killWorker();
    const silent = await stack.fake.waitFor(() => topLevel().filter((m) => m.text === 'The doctor could not run on sim')[1], { timeoutMs: 30_000 });
    expect(blocksText(silent.blocks)).toContain('could not run on* `sim`: no worker of sim answered within 5 s.');
    await afterScans(2);
    expect(topLevel().filter((m) => m.text === 'The doctor could not run on sim')).toHaveLength(2);
    // A doctor nobody took is not left queued: a worker coming back runs today's scan, not every one missed.
    const waiting = (await stack.queue.getJobs(['waiting'])).filter((j) => j.name === 'doctor');
    expect(waiting.length).toBeLessThanOrEqual(1);
    await stack.startWorker();
    await stack.fake.waitFor(() => thread(silent).find((m) => m.text.startsWith('✅ The doctor runs again')), { timeoutMs: 30_000 });
  });

  it('with two bot replicas on the same Redis prefix, runs one scan per interval and posts each change once', async () => {
    await stack.startSecondBot();
    const from = Date.now();
    await afterScans(4);
    const jobs = (await stack.queue.getJobs(['completed'])).filter((j) => j.name === 'doctor' && (j.data as { requestedBy: string }).requestedBy === 'scheduled-doctor' && j.timestamp >= from);
    const times = jobs.map((j) => j.timestamp).sort((a, b) => a - b);
    expect(times.length).toBeGreaterThanOrEqual(3);
    // Each replica would scan every interval on its own: two within milliseconds of each other.
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThan(everySeconds * 1000 - 300);
    expect(times.length).toBeLessThanOrEqual(Math.ceil((Date.now() - from) / (everySeconds * 1000)) + 1);

    // Its earlier clearing went with the record lost above, so its return is a new post.
    const before = postsAbout('rollout-invalid-json').length;
    await stack.sim.break('rollout-invalid-json');
    await stack.fake.waitFor(() => postsAbout('rollout-invalid-json')[before], { timeoutMs: 20_000 });
    await afterScans(3);
    expect(postsAbout('rollout-invalid-json')).toHaveLength(before + 1);
    // The new replica, like a bot restarted, found the record in Redis: it did not announce the watch again.
    expect(topLevel().filter((m) => m.text.startsWith('The scheduled doctor watches sim'))).toHaveLength(2);
  });
});
