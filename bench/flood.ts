import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { eventCallbackBody, postSigned } from '../test/support/slack-requests.js';
import { approver, channel, signingSecret, startStack, testRedisUrl, type Stack } from '../test/support/stack.js';
import { writeSection } from './results.js';
import { percentiles } from './slack/stats.js';

/**
 * Issue 10, item 5: how long a person's approval card takes to appear while someone else floods the
 * same channel with pasted errors, against the same with no flood, in one run. The whole product runs
 * as in the end-to-end tests (Bolt's HTTP receiver with signed requests, Redis, a worker process, the
 * simulated cluster), against the fake Slack with its rate limit on: 10 chat.postMessage at once per
 * channel, then 1 per second, 429 with Retry-After beyond, as Slack does.
 */

const LIMIT = { burst: 10, perSecond: 1 };
/** The flood: 300 pasted errors in 11 s from one person. */
const FLOOD = { pastes: 300, seconds: 11 };

/** One measured card, with what Slack saw during its trial. */
interface Trial {
  readonly flood: boolean;
  readonly cardMs: number;
  readonly postAttempts: number;
  readonly rateLimited: number;
  readonly pasteAnswers: number;
  readonly notices: number;
  /** Paste answers posted after the fix was asked for and before its card. */
  readonly answersBeforeCard: number;
}

/** One configuration of the bot (its paste budgets), measured with and without a flood. */
interface Condition {
  readonly name: string;
  readonly env: Record<string, string>;
  readonly trials: Trial[];
}

let seq = 0;
const pasteText = (i: number) => `build ${i}: git-sensor: fatal: could not read Username for 'https://github.com': terminal prompts disabled, exit status 128`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends the flood on an open-loop schedule; resolves `third` once a third of it is sent. */
function flood(stack: Stack, user: string): { sent: Set<string>; third: Promise<void>; done: Promise<void> } {
  const sent = new Set<string>();
  let markThird = () => undefined as void;
  const third = new Promise<void>((r) => (markThird = r));
  const start = performance.now();
  let posted = 0;
  const one = async (i: number) => {
    await sleep(start + (i * FLOOD.seconds * 1000) / FLOOD.pastes - performance.now());
    const ts = `${1_797_000_000 + ++seq}.000100`;
    sent.add(ts);
    const event = { type: 'message', channel, channel_type: 'channel', user, text: pasteText(i), ts, event_ts: ts };
    await postSigned(stack.eventsUrl, eventCallbackBody(event), { secret: signingSecret, contentType: 'application/json' });
    if (++posted === Math.floor(FLOOD.pastes / 3)) markThird();
  };
  const done = Promise.all(Array.from({ length: FLOOD.pastes }, (_, i) => one(i))).then(() => undefined);
  return { sent, third, done };
}

/** Waits until the fake Slack has had no call for `quietMs` (the paste lane drained), at most `maxMs`. */
async function quiet(stack: Stack, quietMs: number, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  let last = stack.fake.calls().length;
  let since = Date.now();
  while (Date.now() < until && Date.now() - since < quietMs) {
    await sleep(250);
    const now = stack.fake.calls().length;
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

/** Budgets as if a minute had passed, and Slack's buckets full again: every trial starts alike. */
async function freshStart(stack: Stack): Promise<void> {
  stack.fake.setRateLimit(LIMIT);
  const redis = new Redis(testRedisUrl);
  try {
    const keys = await redis.keys(`${stack.config.queuePrefix}:budget:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

async function trial(stack: Stack, i: number, withFlood: boolean): Promise<Trial> {
  await freshStart(stack);
  const callsBefore = stack.fake.calls().length;
  const flooder = `U0FLOOD${i}`;
  const f = withFlood ? flood(stack, flooder) : undefined;
  if (f) await f.third;
  const answers = () => stack.fake.messages(channel).filter((m) => m.thread_ts !== undefined && f?.sent.has(m.thread_ts)).map((m) => m.ts);
  const answeredBefore = new Set(answers());
  const asker = `U0ASKER${i}`;
  const roots = new Set(stack.fake.messages(channel).filter((m) => !m.thread_ts).map((m) => m.ts));
  const t0 = performance.now();
  await stack.slash('fix build-logs', asker);
  const root = await stack.fake.waitFor((s) => s.messages(channel).find((m) => !m.thread_ts && !roots.has(m.ts) && m.text.includes(asker)), { timeoutMs: 600_000, what: 'the root message' });
  const card = await stack.fake.waitFor((s) => s.thread(channel, root.ts).find((m) => JSON.stringify(m.blocks ?? []).includes('"action_id":"remedy-deny')), { timeoutMs: 600_000, what: 'the approval card' });
  const cardMs = performance.now() - t0;
  const order = stack.fake.messages(channel).map((m) => m.ts);
  const answersBeforeCard = answers().filter((ts) => !answeredBefore.has(ts) && order.indexOf(ts) < order.indexOf(card.ts)).length;
  // The card is denied, so the entry is free for the next trial.
  await stack.click(card, 'remedy-deny', approver);
  await stack.fake.waitFor((s) => s.thread(channel, root.ts).find((m) => m.text.includes('denied the plan')), { timeoutMs: 600_000, what: 'the denial' });
  await f?.done;
  await quiet(stack, 3500, 60_000);
  const calls = stack.fake.calls().slice(callsBefore).filter((c) => c.method === 'chat.postMessage');
  return {
    flood: withFlood,
    cardMs,
    postAttempts: calls.length,
    rateLimited: calls.filter((c) => c.status === 429).length,
    pasteAnswers: answers().length,
    notices: stack.fake.ephemerals(flooder).length,
    answersBeforeCard,
  };
}

/** Options of one run; the defaults are the recorded method. */
export interface FloodBenchOptions {
  /** Trials of each kind (quiet, flood) per condition, interleaved. */
  readonly trials?: number;
  /** Only these conditions (by name). */
  readonly only?: readonly string[];
  readonly log?: (line: string) => void;
}

export async function benchFlood(options: FloodBenchOptions = {}): Promise<{ conditions: Condition[]; loadAtStart: number; loadAtEnd: number }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const loadAtStart = loadavg()[0]!;
  const all: Condition[] = [
    { name: 'default budgets', env: {}, trials: [] },
    // Every paste of the flood within budget: only the scheduler stands between the flood and the card.
    { name: 'no budgets (1000 a minute)', env: { PLATFORM_MEDIC_PASTE_ANSWERS_PER_USER_PER_MINUTE: '1000', PLATFORM_MEDIC_PASTE_ANSWERS_PER_CHANNEL_PER_MINUTE: '1000' }, trials: [] },
  ];
  let trialNo = 0;
  const conditions = all.filter((c) => !options.only || options.only.includes(c.name.split(' ')[0]!));
  for (const condition of conditions) {
    const stack = await startStack('bench-flood', { rateLimit: LIMIT, env: { ...condition.env, PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR: '1000' } });
    try {
      for (let i = 0; i < (options.trials ?? 5); i++) {
        for (const withFlood of [false, true]) {
          const t = await trial(stack, ++trialNo, withFlood);
          condition.trials.push(t);
          log(`flood bench, ${condition.name}, trial ${i + 1} ${withFlood ? 'flood' : 'quiet'}: card ${t.cardMs.toFixed(0)} ms, ${t.postAttempts} postMessage (${t.rateLimited} × 429), ${t.pasteAnswers} paste answers, ${t.notices} notices, ${t.answersBeforeCard} answers between ask and card`);
        }
      }
    } finally {
      await stack.stop();
    }
  }
  return { conditions, loadAtStart, loadAtEnd: loadavg()[0]! };
}

const ms = (n: number) => (n < 10 ? `${n.toFixed(1)} ms` : n < 10_000 ? `${n.toFixed(0)} ms` : `${(n / 1000).toFixed(1)} s`);
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const range = (xs: readonly number[]) => (Math.min(...xs) === Math.max(...xs) ? `${Math.min(...xs)}` : `${Math.min(...xs)}–${Math.max(...xs)}`);

/** The RESULTS.md section. */
export function floodSection(r: Awaited<ReturnType<typeof benchFlood>>): string {
  const rows = r.conditions.map((c) => {
    const quiet = percentiles(c.trials.filter((t) => !t.flood).map((t) => t.cardMs));
    const flooded = c.trials.filter((t) => t.flood);
    const during = percentiles(flooded.map((t) => t.cardMs));
    const n = (f: (t: Trial) => number) => range(flooded.map(f));
    return {
      table: `| ${c.name} | ${ms(quiet.p50)} / ${ms(quiet.max)} | ${ms(during.p50)} / ${ms(during.max)} | ${(during.p50 / quiet.p50).toFixed(2)} | ${n((t) => t.postAttempts)} | ${n((t) => t.rateLimited)} | ${n((t) => t.pasteAnswers)} | ${n((t) => t.notices)} | ${n((t) => t.answersBeforeCard)} |`,
      trials: quiet.n,
      meanAttempts: mean(flooded.map((t) => t.postAttempts)),
    };
  });
  return `Run ${new Date().toISOString().slice(0, 10)} on ${availableParallelism()} cores (nproc), Node ${process.version}, 1-minute load average ${r.loadAtStart.toFixed(2)} at the start, ${r.loadAtEnd.toFixed(2)} at the end.
Produced by \`npm run bench\` (bench/flood.ts; alone: \`npm run bench -- flood\`).

**Method.** The whole product as in the end-to-end tests (test/support/stack.ts: Bolt's HTTP receiver driven by
signed requests, Redis, a worker process, the simulated cluster) against the fake Slack with its chat.postMessage
limit on: ${LIMIT.burst} at once per channel, then ${LIMIT.perSecond} per second, 429 with Retry-After beyond. A trial: person B sends a
signed \`/platform fix build-logs\` in the channel; the card latency runs from sending it to the fake Slack recording
the approval card (one clock, one process); B's card is then denied and the next trial waits until Slack has been
quiet for 3.5 s. In a flood trial person A first starts sending ${FLOOD.pastes} signed message events with a pasted error
(the issue's ${FLOOD.pastes} in ${FLOOD.seconds} s, on an open-loop schedule) into the same channel, and B asks once a third of them are sent.
Quiet and flood trials alternate, ${rows[0]?.trials ?? 0} of each per condition; before each, the paste budgets are cleared
(as if a minute had passed) and the fake's rate-limit buckets are full. Two conditions of the bot: its default paste
budgets (5 a person, 20 a channel, per minute), and budgets so high that every paste of the flood is admitted, which
leaves only the scheduler (remedy writes first, paste writes paced and dropped after 30 s) between the flood and the card.
Figures in the last five columns are per flood trial (range over the trials), for the channel's whole trial.

| condition | card, quiet: p50 / max | card, during the flood: p50 / max | ratio of p50s | chat.postMessage attempts | of them 429 | paste answers to A | notices to A | paste answers between B's ask and B's card |
|---|---|---|---|---|---|---|---|---|
${rows.map((x) => x.table).join('\n')}`;
}

/** Runs the flood bench and replaces the "Paste flood" section of `resultsPath`. */
export async function recordFloodBench(resultsPath: string, options: FloodBenchOptions = {}): Promise<void> {
  const body = floodSection(await benchFlood(options));
  writeSection(resultsPath, 'Paste flood', body);
  console.log(body);
}

// `npx tsx bench/flood.ts [--trials N] [--only default|no] [--print]` runs this section alone.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const options = { ...(arg('--trials') ? { trials: Number(arg('--trials')) } : {}), ...(arg('--only') ? { only: [arg('--only')!] } : {}) };
  if (process.argv.includes('--print')) console.log(floodSection(await benchFlood(options)));
  else await recordFloodBench(join(import.meta.dirname, 'RESULTS.md'), options);
  process.exit(0);
}
