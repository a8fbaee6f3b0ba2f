import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { clusterQueueName } from '../src/jobs/names.js';
import { assertRedisReachable } from '../src/jobs/redis.js';
import { runClickTrials, type ClickResult } from './slack/clicks.js';
import { freePort, keepAliveAgent } from './slack/http.js';
import { forkChild, tail, type BenchChild } from './slack/ipc.js';
import { runLoad, type LoadResult } from './slack/load.js';
import type { ChannelSummary, DenierOptions, DenierResult, ServicesInfo } from './slack/protocol.js';
import { slackSection, soakSection } from './slack/report.js';
import type { ProcessStats } from './slack/child.mjs';
import { botProductionForm, kernelRss, startProbes } from './slack/production.js';
import { runSoak, type SoakResult } from './slack/soak.js';
import { writeSection } from './results.js';

/**
 * The Slack bars of PRODUCT.md, measured in one run (issue 5 point 7):
 *  1. acknowledgement latency of signed `/platform` commands at 100 per second for 30 s, sent on one
 *     open-loop schedule to the real bot and to a bare Bolt app that only acks, each in its own process;
 *  2. Approve click → worker starts the run job, over 200 sequential trials;
 *  3. peak memory of the bot's process and of the bare app's.
 * The parent only generates load and watches the queue; the fake Slack and the simulated cluster
 * live in a child of their own, the worker in another.
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const mb = (n: number): string => `${(n / 2 ** 20).toFixed(0)} MB`;
const root = join(import.meta.dirname, '..');
const CLUSTER = 'sim';
const APPROVER = 'U0APPROVER';
const LOAD_CHANNEL = 'C0LOAD';

/** Knobs of one run; the defaults are the bars' conditions. */
export interface SlackBenchOptions {
  readonly perSecond?: number;
  readonly seconds?: number;
  readonly warmupSeconds?: number;
  readonly clickTrials?: number;
  readonly clickBudgetMs?: number;
  /** Writes a V8 CPU profile of the bot's process (kept in the printed directory). */
  readonly cpuProf?: boolean;
  /**
   * Writes heap snapshots of the bot (kept in the printed directory): idle after start, after the
   * warm-up, halfway through the load, after it. A snapshot stops the bot for a while: latency
   * figures of such a run are not the bar's.
   */
  readonly heapSnapshots?: boolean;
  /**
   * Records the bot's allocations during the load (sampled; a .heapprofile kept in the printed
   * directory): `all`, or only those `promoted` out of the young generation.
   */
  readonly allocations?: 'all' | 'promoted';
  /** Replaces the manifest's NODE_OPTIONS for the bot (to measure other Node flags against them). */
  readonly botNodeOptions?: string;
  /** More node flags for the bot, e.g. --trace-gc (to its log), which NODE_OPTIONS does not take. */
  readonly botNodeFlags?: readonly string[];
  /** Leaves out the kubelet's probes and the /metrics scrape (to see what they cost the bot's latency). */
  readonly noProbes?: boolean;
  /** Keeps the directory of the children's logs (printed at the start), e.g. for --trace-gc output. */
  readonly keepLogs?: boolean;
  /** After the measured load, this many seconds more of it, reading both apps' heap after a full GC every 30 s. */
  readonly soakSeconds?: number;
  readonly log?: (line: string) => void;
}

/** Everything the Slack section reports. */
export interface SlackResults {
  readonly date: string;
  readonly nproc: number;
  readonly node: string;
  readonly loadAtStart: number;
  readonly perSecond: number;
  readonly seconds: number;
  readonly load: LoadResult;
  /** How the bot was started: the manifest's command, NODE_OPTIONS, memory request and limit. */
  readonly form: { readonly argv: readonly string[]; readonly nodeOptions: string; readonly memoryRequest: string; readonly memoryLimit: string };
  /** Both apps ready, before any request, with a full GC. */
  readonly botIdle: ProcessStats;
  readonly bareIdle: ProcessStats;
  /** The kernel's peak resident set (VmHWM) of each app over its life up to the end of the load, bytes. */
  readonly botPeakRss: number;
  readonly barePeakRss: number;
  readonly botDuringLoad: ProcessStats;
  /** Right after the load, with a full GC. */
  readonly botAfterLoad: ProcessStats;
  readonly bareDuringLoad: ProcessStats;
  readonly workerDuringLoad: ProcessStats;
  readonly servicesDuringLoad: ProcessStats;
  /** The bot's figures at the very end (peak memory over the whole run). */
  readonly botAtEnd: ProcessStats;
  readonly loadChannel: ChannelSummary;
  /** The load channel's approval cards, denied by an approver as they appeared. */
  readonly denials: DenierResult;
  readonly warmupSeconds: number;
  /** Requests the bot received up to the end of the load (warm-up, load, denials), when the fake's calls were counted. */
  readonly botRequestsBeforeTrials: number;
  readonly loadAtEnd: number;
  readonly clicks: ClickResult;
  /** The bot's VmHWM at the very end (after the click trials), bytes. */
  readonly botPeakRssAtEnd: number;
  readonly soak?: SoakResult;
  readonly profileDir?: string;
}

/** Waits until the cluster's queue has nothing waiting or active and the fake Slack has been quiet for 500 ms. */
async function drain(queue: Queue, services: BenchChild<ServicesInfo>, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  let calls = -1;
  while (performance.now() < until) {
    const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
    const now = await services.call<number>('callCount');
    if (counts.waiting === 0 && counts.active === 0 && counts.prioritized === 0 && now === calls) return;
    calls = now;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Removes every key of the run's prefix: the queue, its jobs, the bot's request records. */
async function removeKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function benchSlack(options: SlackBenchOptions = {}): Promise<SlackResults> {
  const log = options.log ?? ((line: string) => console.log(line));
  const perSecond = options.perSecond ?? 100;
  const seconds = options.seconds ?? 30;
  const loadAtStart = loadavg()[0]!;
  await assertRedisReachable(REDIS_URL);
  // The bot is measured as it ships: built as the Dockerfile builds it.
  log('Slack bench: npm run build (the bot runs from dist/)');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
  const dir = mkdtempSync(join(tmpdir(), 'medic-bench-slack-'));
  const here = join(import.meta.dirname, 'slack');
  const secret = randomBytes(16).toString('hex');
  const prefix = `bench-slack-${process.pid}-${randomBytes(3).toString('hex')}`;
  const children: BenchChild<unknown>[] = [];
  let ok = false;
  try {
    log(`Slack bench: starting the fake Slack and the simulated cluster (logs in ${dir})`);
    const kubeconfig = join(dir, 'kubeconfig');
    const services = await forkChild<ServicesInfo>('services', join(here, 'services-process.ts'), { env: { ...process.env }, args: [JSON.stringify({ kubeconfig })], logPath: join(dir, 'services.log') });
    children.push(services);
    const configFile = join(dir, 'platform-medic.yaml');
    writeFileSync(configFile, `clusters:\n  - name: ${CLUSTER}\n    kube: { source: kubeconfig, path: ${kubeconfig} }\n`);
    const bench = {
      SLACK_BOT_TOKEN: services.info.botToken,
      SLACK_SIGNING_SECRET: secret,
      SLACK_APP_TOKEN: '',
      SLACK_API_URL: services.info.apiUrl,
      REDIS_URL,
      PLATFORM_MEDIC_CONFIG: configFile,
      PLATFORM_MEDIC_QUEUE_PREFIX: prefix,
      PLATFORM_MEDIC_APPROVERS: APPROVER,
      PLATFORM_MEDIC_DEFAULT_CLUSTER: CLUSTER,
    };
    // The bot runs in its production form: the manifest's command and environment (NODE_OPTIONS
    // included), a clean environment as in the container, its own ports.
    const form = botProductionForm();
    if (form.argv[0] !== 'node') throw new Error(`the bot's manifest no longer starts node: ${form.argv.join(' ')}`);
    const [port, healthPort] = [await freePort(), await freePort()];
    const nodeOptions = options.botNodeOptions ?? form.env.NODE_OPTIONS;
    const botEnv = { PATH: process.env.PATH, ...form.env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}), PORT: String(port), HEALTH_PORT: String(healthPort), LOG_LEVEL: form.env.LOG_LEVEL ?? 'info', ...bench };
    const workerEnv = { ...process.env, ...bench, PORT: '0', LOG_LEVEL: 'info' };
    log(`Slack bench: starting the bot (${form.argv.join(' ')}, NODE_OPTIONS=${nodeOptions ?? ''}, memory limit ${form.memoryLimit}), the bare Bolt app and the worker, each in its own process`);
    const profileDir = options.cpuProf ? join(dir, 'profiles') : undefined;
    const botFlags = ['--import', join(here, 'probe.mjs'), '--expose-gc', ...(options.botNodeFlags ?? []), ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
    const [bot, bare, worker] = await Promise.all([
      forkChild<{ port: number }>('bot', join(root, form.argv[1]!), { env: botEnv, args: form.argv.slice(2), loader: 'none', logPath: join(dir, 'bot.log'), nodeFlags: botFlags }),
      forkChild<{ port: number }>('bare', join(here, 'bare-app.mjs'), { env: { PATH: process.env.PATH, ...form.imageEnv }, args: [JSON.stringify({ token: services.info.botToken, signingSecret: secret, apiUrl: services.info.apiUrl })], loader: 'none', logPath: join(dir, 'bare.log'), nodeFlags: ['--expose-gc'] }),
      forkChild<object>('worker', join(here, 'worker-process.ts'), { env: workerEnv, logPath: join(dir, 'worker.log') }),
    ]);
    children.push(bot, bare, worker);
    const queue = new Queue(clusterQueueName(CLUSTER), { connection: { url: REDIS_URL }, prefix });
    try {
      const targets = [
        { name: 'platform-medic bot', port: bot.info.port, agent: keepAliveAgent() },
        { name: 'bare Bolt app', port: bare.info.port, agent: keepAliveAgent() },
      ];
      const loadOptions = { targets, perSecond, secret, channel: LOAD_CHANNEL, responseBase: services.info.url };
      const kubelet = options.noProbes ? { stop: () => undefined } : startProbes(bot.info.port, form);
      const [botIdle, bareIdle] = [await bot.call<ProcessStats>('stats', { gc: true }), await bare.call<ProcessStats>('stats', { gc: true })];
      const warmupTicks = Math.round((options.warmupSeconds ?? 3) * perSecond);
      const snapshot = async (name: string): Promise<void> => {
        if (options.heapSnapshots) log(`Slack bench: heap snapshot ${await bot.call<string>('snapshot', join(dir, `bot-${name}.heapsnapshot`))}`);
      };
      await snapshot('1-idle');
      log(`Slack bench: warm-up, ${warmupTicks} commands to each`);
      await services.call('startDenying', { port: bot.info.port, secret, channel: LOAD_CHANNEL, user: APPROVER } satisfies DenierOptions);
      await runLoad({ ...loadOptions, ticks: warmupTicks });
      await Promise.all(children.map((c) => c.call('mark')));
      await snapshot('2-after-warm-up');
      log(`Slack bench: ${perSecond} signed /platform commands per second for ${seconds} s to each, side by side`);
      const halfway = options.heapSnapshots ? setTimeout(() => void snapshot('3-halfway'), (seconds * 1000) / 2) : undefined;
      if (options.allocations) await bot.call('allocationsStart', { promoted: options.allocations === 'promoted' });
      const load = await runLoad({ ...loadOptions, ticks: perSecond * seconds });
      if (options.allocations) log(`Slack bench: allocations during the load ${await bot.call<string>('allocationsStop', join(dir, `bot-load-${options.allocations}.heapprofile`))}`);
      clearTimeout(halfway);
      await snapshot('4-after-load');
      const [botPeakRss, barePeakRss] = [kernelRss(bot.process.pid!)?.hwm ?? NaN, kernelRss(bare.process.pid!)?.hwm ?? NaN];
      const stats = (c: BenchChild<unknown>): Promise<ProcessStats> => c.call<ProcessStats>('stats');
      const [botDuringLoad, workerDuringLoad, servicesDuringLoad] = await Promise.all([stats(bot), stats(worker), stats(services)]);
      const bareDuringLoad = await bare.call<ProcessStats>('stats', { gc: true });
      const botAfterLoad = await bot.call<ProcessStats>('stats', { gc: true });
      log(`Slack bench: peak RSS (VmHWM) bot ${mb(botPeakRss)}, bare ${mb(barePeakRss)}; heap after GC bot ${mb(botAfterLoad.heapAfterGc ?? NaN)}, bare ${mb(bareDuringLoad.heapAfterGc ?? NaN)}`);
      const soak = options.soakSeconds ? await runSoak({ load: loadOptions, seconds: options.soakSeconds, everySeconds: 30, apps: [bot, bare], log }) : undefined;
      await drain(queue, services, 20_000);
      const denials = await services.call<DenierResult>('stopDenying');
      const loadChannel = await services.call<ChannelSummary>('summary', LOAD_CHANNEL);
      await bare.stop();

      const trials = options.clickTrials ?? 200;
      log(`Slack bench: ${trials} approval clicks, one after another`);
      const clicks = await runClickTrials({
        botPort: bot.info.port,
        agent: targets[0]!.agent,
        services,
        secret,
        redisUrl: REDIS_URL,
        prefix,
        cluster: CLUSTER,
        requesterPrefix: 'U0TRIAL',
        approver: APPROVER,
        trials,
        budgetMs: options.clickBudgetMs ?? 60_000,
      });
      const botAtEnd = await bot.call<ProcessStats>('stats', { gc: true });
      const botPeakRssAtEnd = kernelRss(bot.process.pid!)?.hwm ?? NaN;
      kubelet.stop();
      for (const t of targets) t.agent.destroy();
      ok = clicks.failures.length < clicks.trials;
      return {
        date: new Date().toISOString().slice(0, 10),
        nproc: availableParallelism(),
        node: process.version,
        loadAtStart,
        perSecond,
        seconds,
        load,
        form: { argv: form.argv, nodeOptions: nodeOptions ?? '', memoryRequest: form.memoryRequest, memoryLimit: form.memoryLimit },
        botIdle,
        bareIdle,
        botPeakRss,
        barePeakRss,
        botDuringLoad,
        botAfterLoad,
        bareDuringLoad,
        workerDuringLoad,
        servicesDuringLoad,
        botAtEnd,
        loadChannel,
        denials,
        warmupSeconds: warmupTicks / perSecond,
        botRequestsBeforeTrials: warmupTicks + perSecond * seconds + denials.denied,
        loadAtEnd: loadavg()[0]!,
        clicks,
        botPeakRssAtEnd,
        ...(soak ? { soak } : {}),
        ...(profileDir ? { profileDir } : {}),
      };
    } finally {
      await queue.close();
    }
  } catch (err) {
    for (const c of children) log(`--- ${c.name} log ---\n${tail(c.log())}`);
    throw err;
  } finally {
    // The fake Slack goes last: the bot may still be posting a report when it is asked to stop.
    await Promise.allSettled(children.slice(1).map((c) => c.stop()));
    await Promise.allSettled(children.slice(0, 1).map((c) => c.stop()));
    await removeKeys(prefix).catch(() => undefined);
    if (ok && !options.cpuProf && !options.heapSnapshots && !options.allocations && !options.keepLogs) rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the Slack bench and replaces the "Slack" section of `resultsPath`; false when a bar fails. */
export async function recordSlackBench(resultsPath: string, options: SlackBenchOptions = {}): Promise<boolean> {
  const results = await benchSlack(options);
  const { body, pass } = slackSection(results);
  writeSection(resultsPath, 'Slack', body);
  console.log(body);
  const soak = soakSection(results);
  if (soak) {
    writeSection(resultsPath, 'Slack memory soak', soak.body);
    console.log(soak.body);
  }
  if (results.profileDir) console.log(`CPU profile of the bot: ${results.profileDir}`);
  if (!pass || (soak && !soak.pass)) process.exitCode = 1;
  return pass && (soak?.pass ?? true);
}

/**
 * `npx tsx bench/slack.ts [--soak SECONDS] [--cpu-prof] [--heap-snapshots] [--allocations all|promoted]`
 * runs this section alone; with --soak, also the "Slack memory soak" section.
 */
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const allocations = value('--allocations');
  if (allocations !== undefined && allocations !== 'all' && allocations !== 'promoted') throw new Error('--allocations takes all or promoted');
  await recordSlackBench(join(import.meta.dirname, 'RESULTS.md'), {
    cpuProf: args.includes('--cpu-prof'),
    heapSnapshots: args.includes('--heap-snapshots'),
    ...(allocations ? { allocations } : {}),
    ...(value('--soak') ? { soakSeconds: Number(value('--soak')) } : {}),
  });
}
