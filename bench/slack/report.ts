import type { SlackResults } from '../slack.js';
import type { ProcessStats } from './child.mjs';
import type { SoakResult } from './soak.js';
import type { Percentiles } from './stats.js';

/** The "Slack" section of bench/RESULTS.md, from one run's figures, with a verdict per bar. */

const ms = (v: number): string => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : 'n/a');
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MB`;
const mb1 = (n: number): string => `${n < 0 ? '−' : ''}${(Math.abs(n) / 1024 / 1024).toFixed(1)} MB`;
const verdict = (ok: boolean): string => (ok ? 'PASS' : '**FAIL**');
const cpu = (s: ProcessStats): string => `${((s.cpuMs / s.wallMs) * 100).toFixed(0)}% of one core`;
const p5099 = (p: Percentiles): string => `${ms(p.p50)} / ${ms(p.p99)}`;

/** The bars of PRODUCT.md. */
export const SLACK_BARS = { ackP99Ms: 50, ackRatio: 1.5, clickP50Ms: 50, slackTimeoutMs: 3000, peakRssMB: 200 } as const;

export function slackSection(r: SlackResults): { body: string; pass: boolean } {
  const [bot, bare] = r.load.targets as [SlackResults['load']['targets'][number], SlackResults['load']['targets'][number]];
  const p99Ratio = bot.latency.p99 / bare.latency.p99;
  const p50Ratio = bot.latency.p50 / bare.latency.p50;
  const p99Ok = bot.latency.p99 <= SLACK_BARS.ackP99Ms;
  const ratioOk = p99Ratio <= SLACK_BARS.ackRatio;
  const ackedOk = bot.errors === 0 && bot.latency.max < SLACK_BARS.slackTimeoutMs;
  const c = r.clicks;
  const clickOk = c.toActiveEvent.n >= 1 && c.toActiveEvent.p50 < SLACK_BARS.clickP50Ms;
  const rssOk = r.botPeakRss <= SLACK_BARS.peakRssMB * 2 ** 20;
  const pass = p99Ok && ratioOk && ackedOk && clickOk && rssOk;
  const errors = (t: typeof bot): string =>
    t.errors === 0 ? `0 of ${t.sent}` : `${t.errors} of ${t.sent} (${Object.entries(t.errorKinds).map(([k, n]) => `${k}: ${n}`).join(', ')})`;
  const byCommand = Object.entries(bot.byCommand)
    .map(([cmd, p]) => `\`${cmd}\` ${p5099(p)} (bare ${p5099(bare.byCommand[cmd] ?? { n: 0, p50: NaN, p99: NaN, max: NaN })})`)
    .join(', ');
  const authTests = r.loadChannel.calls['auth.test'] ?? 0;
  const failing = [!p99Ok && `p99 ${ms(bot.latency.p99)} is over ${SLACK_BARS.ackP99Ms} ms`, !ratioOk && `p99 is ${p99Ratio.toFixed(2)}× the bare app's`, !ackedOk && 'not every command was acknowledged within 3 s', !clickOk && `click → worker start p50 is ${ms(c.toActiveEvent.p50)}`, !rssOk && `peak RSS under the load is ${mb(r.botPeakRss)}`].filter(Boolean);
  const gcd = (s: ProcessStats): string => (s.heapAfterGc !== undefined ? mb(s.heapAfterGc) : 'n/a');

  const body = `Run ${r.date} on ${r.nproc} cores (nproc), Node ${r.node}, 1-minute load average ${r.loadAtStart.toFixed(2)} at the start.
Produced by \`npm run bench\` (bench/slack.ts; alone: \`npx tsx bench/slack.ts\`). ${pass ? 'Every bar passes.' : `**Bars failing: ${failing.join('; ')}.**`}

**Acknowledgement of signed slash commands.** ${r.perSecond} signed \`/platform\` commands per second for ${r.seconds} s (after a
${r.warmupSeconds} s warm-up) to each of two apps, each in a process of its own under plain \`node\`. The bot in its production
form: \`${r.form.argv.join(' ')}\` from the freshly built dist/, with deploy/base/bot's environment (NODE_OPTIONS=\`${r.form.nodeOptions}\`,
the Dockerfile's NODE_ENV=production; memory request ${r.form.memoryRequest}, limit ${r.form.memoryLimit}), Redis, the fake Slack Web API, a worker on the
simulated cluster in a process of its own, and the kubelet's probes at the manifest's periods with a /metrics scrape every 15 s.
The bare app: the same Bolt, receiver and signing secret, whose \`/platform\` listener only acks. One open-loop
schedule: every command goes to both at the same tick (order alternating), over keep-alive connections; latency runs from
the request's start to the last byte of the answer, as the load generator (the parent process) sees it. Mix: 3 in 10
\`help\`, 3 \`list\`, 2 \`explain\`, 2 \`fix\` (\`build-logs\`, \`sso-login\`, \`terminal-disconnects\`,
\`rollout-invalid-json\` in turn, from 10,000 people in turn). Every fix posts a root message; since the product runs one
remedy per entry and cluster at a time, an approver (played by the fake Slack's process) denies each approval card as it
appears, freeing the entry, and a fix that finds its entry still busy gets the product's refusal in the thread. Load channel,
warm-up included: ${r.loadChannel.roots} fixes posted, ${r.loadChannel.cards} plans reached an approval card, ${r.loadChannel.refusedBusy} were refused as already being fixed,
${r.loadChannel.refusedRate} by the hourly limit; ${r.denials.denied} denial clicks, acked in ${p5099(r.denials.ack)} (p50 / p99), ${r.denials.errors} errors.
These clicks are extra background work for the bot only; the measured commands are the same for both apps.

| measure | platform-medic bot | bare Bolt app | bar | verdict |
|---|---|---|---|---|
| ack latency p50 | ${ms(bot.latency.p50)} | ${ms(bare.latency.p50)} | | ratio ${p50Ratio.toFixed(2)} |
| ack latency p99 | ${ms(bot.latency.p99)} | ${ms(bare.latency.p99)} | at most ${SLACK_BARS.ackP99Ms} ms | ${verdict(p99Ok)} |
| p99 ratio, bot / bare | ${p99Ratio.toFixed(2)} | | at most ${SLACK_BARS.ackRatio} | ${verdict(ratioOk)} |
| ack latency max | ${ms(bot.latency.max)} | ${ms(bare.latency.max)} | | |
| errors (non-200, socket error, no answer in 3 s) | ${errors(bot)} | ${errors(bare)} | none; all within 3 s | ${verdict(ackedOk)} |
| peak RSS, start to end of the load (kernel's VmHWM) | ${mb(r.botPeakRss)} | ${mb(r.barePeakRss)} | bot at most ${SLACK_BARS.peakRssMB} MB | ${verdict(rssOk)} |
| peak heap used, start to end of the load (sampled every 50 ms) | ${mb(r.botDuringLoad.peakHeapUsed)} | ${mb(r.bareDuringLoad.peakHeapUsed)} | | |
| ready and idle, before any request: rss / heap after a full GC | ${mb(r.botIdle.rss)} / ${gcd(r.botIdle)} | ${mb(r.bareIdle.rss)} / ${gcd(r.bareIdle)} | | |
| right after the load: rss / heap used / heap after a full GC | ${mb(r.botDuringLoad.rss)} / ${mb(r.botDuringLoad.heapUsed)} / ${gcd(r.botAfterLoad)} | ${mb(r.bareDuringLoad.rss)} / ${mb(r.bareDuringLoad.heapUsed)} / ${gcd(r.bareDuringLoad)} | | |
| bot after the click trials: peak RSS over its life / heap after a full GC | ${mb(r.botPeakRssAtEnd)} / ${gcd(r.botAtEnd)} | | | |
| CPU during the ${r.seconds} s | ${cpu(r.botDuringLoad)} | ${cpu(r.bareDuringLoad)} | | |
| event-loop delay p99 / max during the ${r.seconds} s | ${ms(r.botDuringLoad.loopDelayP99Ms)} / ${ms(r.botDuringLoad.loopDelayMaxMs)} | ${ms(r.bareDuringLoad.loopDelayP99Ms)} / ${ms(r.bareDuringLoad.loopDelayMaxMs)} | | |

Bot p50 / p99 by command: ${byCommand}. The generator's ticks fired up to ${ms(r.load.tickLag.p99)} late at p99
(max ${ms(r.load.tickLag.max)}); both apps see the same lateness. Alongside, the worker used ${cpu(r.workerDuringLoad)} and the
fake Slack with the simulated cluster ${cpu(r.servicesDuringLoad)}; everything shares the ${r.nproc} cores with Redis.
Memory: MB are 2^20 bytes; peak RSS is the kernel's high-water mark of each process from its start, read from /proc at the end
of the load. Heap figures come from bench/slack/probe.mjs, preloaded into the bot only by the benchmark (\`--import\`, with
\`--expose-gc\`), which answers over the IPC channel of \`fork\`: the product serves nothing extra.
The fake Slack answered ${authTests} \`auth.test\` calls up to the end of the load, by which time the bot had received
${r.botRequestsBeforeTrials} requests (the bare app calls it once, at start; the bot once at start-up).${authTests >= 0.9 * r.botRequestsBeforeTrials ? ` **What dominates the bot's ack:** Bolt calls
\`auth.test\` before every listener, because createSlackBot sets \`tokenVerificationEnabled: false\` without \`botId\` and
\`botUserId\` (Bolt 5.1's \`singleAuthorization\` then re-runs auth.test on each authorize, its "cache" overwritten every
time). Here that is a loopback round trip to the fake Slack's busy process; against slack.com it is an Internet round trip
inside every ack, on a rate-limited method. Fix (src/slack/app.ts): give \`new App\` the \`botId\` and \`botUserId\` from the
auth.test that start() already makes (or an \`authorize\` that returns them), so no request waits on Slack before its ack.` : ''}
Machine load (1-minute average) went from ${r.loadAtStart.toFixed(2)} to ${r.loadAtEnd.toFixed(2)} during the run; other work on the machine shows up in both apps' p99.

**Approve click → worker starts the run.** ${c.trials} trials, one after another, on the same bot after the load: each
\`/platform fix git-sensor-stuck\`, waits for the approval card in the fake Slack, then sends a signed \`block_actions\`
click on its Approve button as an approver and waits for the run to end (the pod deleted and back Ready: ${c.runsCompleted} of ${c.trials}).
A fix asked before the bot had closed the previous trial's remedy is refused as busy and asked again (${c.busyRetries} times).
Measured with BullMQ QueueEvents \`active\` for the run job's id, observed in the parent, from the parent's send time of
the click (one clock); cross-checked against the event's Redis stream id and the worker's \`job.processedOn\` (ms clocks).

| measure | p50 | p99 | max | bar | verdict |
|---|---|---|---|---|---|
| click sent → QueueEvents \`active\` received (parent's clock) | ${ms(c.toActiveEvent.p50)} | ${ms(c.toActiveEvent.p99)} | ${ms(c.toActiveEvent.max)} | p50 under ${SLACK_BARS.clickP50Ms} ms | ${verdict(clickOk)} |
| click sent → \`active\` event written (Redis stream id, ms) | ${ms(c.toActiveStreamId.p50)} | ${ms(c.toActiveStreamId.p99)} | ${ms(c.toActiveStreamId.max)} | | |
| click sent → \`job.processedOn\` (worker's clock, ms) | ${ms(c.toProcessedOn.p50)} | ${ms(c.toProcessedOn.p99)} | ${ms(c.toProcessedOn.max)} | | |
| the click's own ack | ${ms(c.clickAck.p50)} | ${ms(c.clickAck.p99)} | ${ms(c.clickAck.max)} | within 3 s | |
| fix command sent → approval card seen | ${ms(c.fixToCard.p50)} | ${ms(c.fixToCard.p99)} | ${ms(c.fixToCard.max)} | | |
${c.failures.length > 0 ? `\nTrials that failed (${c.failures.length}): ${c.failures.slice(0, 5).join('; ')}${c.failures.length > 5 ? '; …' : ''}\n` : ''}`;
  return { body, pass };
}

/** What counts as flat: the fitted growth of the heap after GC over the whole soak stays under this. */
export const SOAK_FLAT_MB = 2;

/** The "Slack memory soak" section, when the run had a soak (`npx tsx bench/slack.ts --soak SECONDS`). */
export function soakSection(r: SlackResults): { body: string; pass: boolean } | undefined {
  const soak = r.soak;
  if (!soak) return undefined;
  const minutes = soak.seconds / 60;
  const [bot, bare] = soak.apps as [SoakResult['apps'][number], SoakResult['apps'][number]];
  const [botLoad, bareLoad] = soak.load.targets as [SoakResult['load']['targets'][number], SoakResult['load']['targets'][number]];
  const growth = (a: typeof bot): number => a.slopePerMinute * minutes;
  const flat = (a: typeof bot): boolean => Math.abs(growth(a)) < SOAK_FLAT_MB * 2 ** 20;
  const pass = flat(bot);
  const first = (a: typeof bot): number => a.samples[0]!.heapAfterGc;
  const last = (a: typeof bot): number => a.samples.at(-1)!.heapAfterGc;
  const spread = (a: typeof bot): string => `${mb1(Math.min(...a.samples.map((s) => s.heapAfterGc)))} – ${mb1(Math.max(...a.samples.map((s) => s.heapAfterGc)))}`;
  const perMinute = (a: typeof bot): string => `${a.slopePerMinute >= 0 ? '+' : '−'}${(Math.abs(a.slopePerMinute) / 1024).toFixed(1)} KB/min`;
  const perCommand = (a: typeof bot): string => `${(a.slopePerMinute / (r.perSecond * 60)).toFixed(1)} bytes`;
  const series = (a: typeof bot): string => a.samples.map((s) => (s.heapAfterGc / 2 ** 20).toFixed(1)).join(', ');
  const loads = soak.machineLoad;
  const body = `Run ${r.date} on ${r.nproc} cores (nproc), Node ${r.node}. Produced by \`npx tsx bench/slack.ts --soak ${soak.seconds}\`; ${pass ? 'the bot\'s heap after a full GC is flat.' : '**the bot\'s heap after a full GC grows.**'}
Machine load (1-minute average) during the soak: ${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)} (mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(2)}); other work on the machine shares the ${r.nproc} cores.

Right after the Slack section's load (same processes, same production form of the bot: NODE_OPTIONS=\`${r.form.nodeOptions}\`),
the same load went on for ${soak.seconds} s more to both apps: ${r.perSecond} signed \`/platform\` commands per second, the same mix, every approval
card denied as it appeared. Every ${soak.everySeconds} s, each app in turn ran a full garbage collection (\`global.gc()\`, both started
with \`--expose-gc\`) and reported its heap used right after it; the slope is the least-squares fit over those ${bot.samples.length} samples.
A per-request leak shows as growth; what is in flight at the moment of a sample is noise around a flat line. Flat: the fitted
growth over the whole soak stays under ${SOAK_FLAT_MB} MB (that is, under about ${((SOAK_FLAT_MB * 2 ** 20) / (soak.seconds * r.perSecond)).toFixed(0)} bytes kept per command).

| measure | platform-medic bot | bare Bolt app | bar | verdict |
|---|---|---|---|---|
| heap after a full GC, first sample / last sample | ${mb1(first(bot))} / ${mb1(last(bot))} | ${mb1(first(bare))} / ${mb1(last(bare))} | | |
| heap after a full GC, lowest – highest sample | ${spread(bot)} | ${spread(bare)} | | |
| slope of the heap after GC (least squares) | ${perMinute(bot)} (${perCommand(bot)} per command) | ${perMinute(bare)} (${perCommand(bare)} per command) | | |
| fitted growth over the ${minutes.toFixed(0)} minutes | ${mb1(growth(bot))} | ${mb1(growth(bare))} | bot under ${SOAK_FLAT_MB} MB | ${pass ? 'PASS' : '**FAIL**'} |
| peak RSS over the process's life, soak included (VmHWM) | ${mb(bot.peakRss)} | ${mb(bare.peakRss)} | | |
| peak heap used over the process's life (sampled every 50 ms) | ${mb(bot.stats.peakHeapUsed)} | ${mb(bare.stats.peakHeapUsed)} | | |
| ack latency p50 / p99 during the soak (the forced GCs included) | ${p5099(botLoad.latency)} | ${p5099(bareLoad.latency)} | | |
| errors (non-200, socket error, no answer in 3 s) | ${botLoad.errors} of ${botLoad.sent} | ${bareLoad.errors} of ${bareLoad.sent} | | |

Heap after GC, MB, every ${soak.everySeconds} s — bot: ${series(bot)}. Bare app: ${series(bare)}.`;
  return { body, pass };
}
