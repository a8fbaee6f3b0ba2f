import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredMessage } from '../fakes/slack-api.js';
import { eventCallbackBody, postSigned } from '../support/slack-requests.js';
import { channel, requester, requestsHandled, signingSecret, startStack, type Stack } from '../support/stack.js';

/**
 * Issue 10, item 5: one person pasting errors as fast as they can must neither flood the channel nor
 * hold up anyone's remedy. The whole product runs for real (Bolt's HTTP receiver with signed events,
 * Redis, the worker process, the simulated cluster), against a fake Slack that rate-limits
 * chat.postMessage per channel as Slack does (10 at once, then 1 per second, 429 with Retry-After).
 */

const flooder = 'U0FLOODER';
const slackLimit = { burst: 10, perSecond: 1 };
const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);

let seq = 0;
/** A Slack message ts of a pasted message, unique across the file. */
const pasteTs = () => `${1_796_000_000 + ++seq}.000100`;

/** A catalogued error, a little different each time, as a person pasting build after build would. */
const pasteText = (i: number) => `build ${i}: git-sensor: fatal: could not read Username for 'https://github.com': terminal prompts disabled, exit status 128`;

/**
 * Sends `count` signed message events from `user`, ten at a time, as Slack delivers a fast typist's
 * pastes; spread over `urls` in turn when there are several bot replicas.
 */
async function paste(stack: Stack, user: string, count: number, urls: readonly string[] = [stack.eventsUrl]): Promise<Set<string>> {
  const sent = new Set<string>();
  let next = 0;
  const sender = async () => {
    while (next < count) {
      const i = next++;
      const ts = pasteTs();
      const event = { type: 'message', channel, channel_type: 'channel', user, text: pasteText(i), ts, event_ts: ts };
      const res = await postSigned(urls[i % urls.length]!, eventCallbackBody(event), { secret: signingSecret, contentType: 'application/json' });
      expect(res.status).toBe(200);
      sent.add(ts);
    }
  };
  await Promise.all(Array.from({ length: 10 }, sender));
  return sent;
}

/**
 * The doctor jobs paste answers queued on the simulated cluster's queue: each bot replica reads an
 * entry's symptom at most once per reuse window (45 s by default), however many pastes name it.
 */
async function doctorJobs(stack: Stack): Promise<number> {
  return (await stack.queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed'])).filter((j) => j.name === 'doctor').length;
}
const reuseWindows = (since: number) => Math.ceil((Date.now() - since) / 45_000);

/** The bot's answers in the threads of these pasted messages, in the order Slack received them. */
const answersTo = (stack: Stack, pastes: Set<string>) => stack.fake.messages(channel).filter((m) => m.thread_ts !== undefined && pastes.has(m.thread_ts));

/** One sample of the bots' /metrics pages, summed over the replicas (each counts what it handled); 0 when absent. */
async function metric(urls: readonly string[], line: string): Promise<number> {
  let sum = 0;
  for (const url of urls) {
    const page = await (await fetch(url.replace('/slack/events', '/metrics'))).text();
    const hit = page.split('\n').find((l) => l.startsWith(`${line} `));
    sum += hit ? Number(hit.slice(line.length + 1)) : 0;
  }
  return sum;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a flood of pasted errors', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
  });

  it('answers one person up to their budget across bot replicas, tells them once in a note only they see, then stays silent; the channel has a budget too, told in the thread where Slack refuses a private note', { timeout: 90_000 }, async () => {
    // The per-person budget is the default (5 a minute); the channel's is lowered to 8 to reach it quickly.
    let log = '';
    const botLog = new Writable({ write: (c: Buffer, _e, cb) => ((log += c.toString()), cb()) });
    stack = await startStack('flood-budget', { rateLimit: slackLimit, env: { PLATFORM_MEDIC_PASTE_ANSWERS_PER_CHANNEL_PER_MINUTE: '8', LOG_LEVEL: 'debug' }, botLog });
    // Two bot replicas behind one address: the budgets are shared through Redis, not per replica.
    const replicas = [stack.eventsUrl, await stack.startSecondBot()];
    const floodStarted = Date.now();
    const pastes = await paste(stack, flooder, 300, replicas);
    const notice = await stack.fake.waitFor((f) => f.ephemerals(flooder)[0], { timeoutMs: 15_000, what: 'the notice to the person pasting' });
    expect(notice.text).toBe(
      '⏸️ I answer at most 5 pasted errors a minute per person, and you have reached that: I will skip your pastes and answer again within 12 s. Meanwhile `/platform match <error>` answers only you.',
    );
    expect(notice.channel).toBe(channel);
    await stack.fake.waitFor(() => answersTo(stack!, pastes).length >= 5 || undefined, { timeoutMs: 15_000, what: 'five answers' });

    // Someone else pastes in the same channel: 3 more answers fill the channel's 8; the next one is told
    // why not. Slack refuses that person an ephemeral message (not in the channel), so it is one line in the thread.
    const other = 'U0COLLEAGUE';
    stack.fake.failNext('chat.postEphemeral', 'user_not_in_channel');
    const theirs = await paste(stack, other, 5, replicas);
    const channelNotice = await stack.fake.waitFor(() => answersTo(stack!, theirs).find((m) => m.text.startsWith('⏸️')), { timeoutMs: 15_000, what: 'the channel notice' });
    expect(channelNotice.text).toBe(
      '⏸️ I answer at most 8 pasted errors a minute in this channel, and it has reached that: I will skip pastes here and answer again within 8 s. Meanwhile `/platform match <error>` answers only you.',
    );
    const theirAnswers = () => answersTo(stack!, theirs).filter((m) => m.ts !== channelNotice.ts);
    await stack.fake.waitFor(() => theirAnswers().length >= 3 || undefined, { timeoutMs: 15_000, what: "the colleague's three answers" });

    // Nothing more comes: once both replicas have handled every pasted message, the rest of the flood
    // is not answered, and no second notice is sent.
    await until('every pasted message handled', async () => (await requestsHandled(replicas, 'event')) >= pastes.size + theirs.size);
    expect(answersTo(stack, pastes)).toHaveLength(5);
    expect(theirAnswers()).toHaveLength(3);
    expect(answersTo(stack, theirs).filter((m) => m.text.startsWith('⏸️'))).toHaveLength(1);
    expect(stack.fake.ephemerals(flooder)).toHaveLength(1);
    expect(stack.fake.ephemerals(other)).toHaveLength(0);
    for (const m of answersTo(stack, pastes)) expect(m.text).toMatch(/^Possibly commits-exit-128 \(guide 7\.23\)/);
    // Every pasted message the bot did not answer is counted, by budget.
    expect(await metric(replicas, 'platform_medic_paste_answers_dropped_total{reason="user-budget"}')).toBe(295);
    expect(await metric(replicas, 'platform_medic_paste_answers_dropped_total{reason="channel-budget"}')).toBe(2);
    // … and logged at debug, by whom and where, never with what was pasted.
    const dropped = log.split('\n').filter((l) => l.includes('paste not answered: its budget is spent'));
    expect(dropped).toHaveLength(297);
    const records = dropped.map((l) => JSON.parse(l) as { level: number; user: string; channel: string; budget: string; notice: boolean });
    expect(records.every((r) => r.level === 20 && r.channel === channel)).toBe(true);
    expect(records.filter((r) => r.notice).map((r) => [r.user, r.budget])).toEqual([
      [flooder, 'user'],
      [other, 'channel'],
    ]);
    expect(log).not.toContain('could not read Username');
    // The answered pastes' candidate was checked on the cluster, once per replica, not once per answer.
    expect(await doctorJobs(stack)).toBeGreaterThanOrEqual(1);
    expect(await doctorJobs(stack)).toBeLessThanOrEqual(replicas.length * reuseWindows(floodStarted));
  });

  it("posts another person's approval card ahead of the paste answers still queued, and stays within Slack's rate limit", { timeout: 90_000 }, async () => {
    // A budget large enough that many paste answers are still waiting when the fix is asked for.
    stack = await startStack('flood-priority', {
      rateLimit: slackLimit,
      env: { PLATFORM_MEDIC_PASTE_ANSWERS_PER_USER_PER_MINUTE: '40', PLATFORM_MEDIC_PASTE_ANSWERS_PER_CHANNEL_PER_MINUTE: '100', PLATFORM_MEDIC_PASTE_ANSWER_MAX_AGE_SECONDS: '10' },
    });
    await stack.sim.break('build-logs');
    const floodStarted = Date.now();
    const pastes = await paste(stack, flooder, 300);
    const floodMs = Date.now() - floodStarted;
    // The paste answers have started to appear: the flood is being answered when the second person asks.
    await stack.fake.waitFor(() => answersTo(stack!, pastes).length >= 1 || undefined, { timeoutMs: 15_000, what: 'the first paste answer' });
    const answeredBeforeAsking = new Set(answersTo(stack, pastes).map((m) => m.ts));
    const rootsBefore = new Set(stack.fake.messages(channel).filter((m) => !m.thread_ts).map((m) => m.ts));
    expect((await stack.slash('fix build-logs', requester)).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !rootsBefore.has(m.ts)), { timeoutMs: 30_000, what: "the fix's root message" });
    const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { timeoutMs: 30_000, what: 'the approval card' });

    // Order, as the channel shows it: between the fix being asked for and its card, at most a handful
    // of paste answers (the one being sent when the fix was asked, and those paced while the worker planned).
    const order = stack.fake.messages(channel).map((m) => m.ts);
    const cardAt = order.indexOf(card.ts);
    const slippedIn = answersTo(stack, pastes).filter((m) => !answeredBeforeAsking.has(m.ts) && order.indexOf(m.ts) < cardAt);
    expect(slippedIn.length).toBeLessThanOrEqual(3);

    // The flood settles: every paste the budget let through was either answered or dropped as too old.
    const stale = 'platform_medic_paste_answers_dropped_total{reason="stale"}';
    const overBudget = await metric([stack.eventsUrl], 'platform_medic_paste_answers_dropped_total{reason="user-budget"}');
    const admitted = 300 - overBudget;
    await until('the admitted paste answers to be sent or dropped', async () => answersTo(stack!, pastes).length + (await metric([stack!.eventsUrl], stale)) === admitted);
    // The budget: 40 at once, and one more every 1.5 s of the flood (a sliding refill).
    expect(admitted).toBeGreaterThanOrEqual(40);
    expect(admitted).toBeLessThanOrEqual(40 + Math.ceil(floodMs / 1500));
    const afterCard = answersTo(stack, pastes).filter((m) => !order.includes(m.ts) || order.indexOf(m.ts) > cardAt).length;
    // Most of the budget's answers were still queued when the fix was asked for, and the card went first.
    expect(afterCard + (await metric([stack.eventsUrl], stale))).toBeGreaterThanOrEqual(20);
    expect(stack.fake.ephemerals(flooder).map((e) => e.text)).toEqual([
      '⏸️ I answer at most 40 pasted errors a minute per person, and you have reached that: I will skip your pastes and answer again within 2 s. Meanwhile `/platform match <error>` answers only you.',
    ]);
    // Slack was not hammered: paste answers are paced below its limit, so it hardly ever said 429.
    expect(stack.fake.calls('chat.postMessage').filter((c) => c.status === 429).length).toBeLessThanOrEqual(2);
    // Forty and more answers about one entry read the cluster once (per reuse window), not forty times.
    expect(await doctorJobs(stack)).toBeGreaterThanOrEqual(1);
    expect(await doctorJobs(stack)).toBeLessThanOrEqual(reuseWindows(floodStarted));
  });
});
