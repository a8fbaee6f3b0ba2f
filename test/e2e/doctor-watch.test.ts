import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { approver, bystander, eventually, requester, startStack, type Stack } from '../support/stack.js';

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
    const requestId = /\\"r\\":\\"(r[a-z0-9]+)\\"/.exec(JSON.stringify(card.blocks))![1]!;
    await stack.click(card, 'remedy-approve', approver, { channel: watchChannel });
    const cleared = await stack.fake.waitFor(() => thread(posted).find((m) => m.text.startsWith('✅ Cleared at')), { timeoutMs: 20_000 });
    expect(cleared.text).toMatch(new RegExp(`^✅ Cleared at \\d\\d:\\d\\d UTC, after remedy \`${requestId}\` by <@${requester}>: \\*Rollout.*\\(\`rollout-invalid-json\`\\) is no longer present in \`sim\`\\.$`));
    await afterScans(2);
    expect(thread(posted).filter((m) => m.text.startsWith('✅ Cleared at'))).toHaveLength(1);
  });
});
