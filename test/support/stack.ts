import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { pino } from 'pino';
import { catalogue } from '../../src/catalogue/index.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import type { PolicyRule, SimPolicy } from '../../src/cluster/sim/index.js';
import { loadConfig, type Config } from '../../src/config.js';
import { clusterQueueName } from '../../src/jobs/names.js';
import { createLogger } from '../../src/logger.js';
import { defaultPlatformNames } from '../../src/platform-names.js';
import { workerRbac } from '../../src/remedies/rbac.js';
import { createSlackBot, type SlackBot } from '../../src/slack/app.js';
import { startFakeSlackApi, type FakeSlackApi, type StoredMessage } from '../fakes/slack-api.js';
import { deliver, interactionPayload, slashPayload } from './slack-envelopes.js';
import { blockActionsBody, postSigned, slashCommandBody, type SignedResponse } from './slack-requests.js';
import { FAKE_WORKSPACE, signingSecret } from './slack-workspace.js';
import { eventually } from './eventually.js';
import { testRedisUrl, uniquePrefix } from './test-redis.js';
import { medicArgs } from './medic-process.js';

// The light helpers too, for the files that start a stack.
export { testRedisUrl, uniquePrefix, eventually, signingSecret };

export const channel = 'C0PLATFORM';
export const approver = 'U0APPROVER';
export const secondApprover = 'U0APPROVER2';
export const requester = 'U0REQUESTER';
export const bystander = 'U0BYSTANDER';

/** The worker's identity in the simulated cluster, holding exactly the RBAC the catalogue declares. */
export const workerSubject = 'system:serviceaccount:devtroncd:platform-medic-worker';

/** The worker's RBAC in the simulated cluster; without `podDeletes` a step that deletes a pod is forbidden and changes nothing. */
export function workerPolicy(options: { podDeletes?: boolean } = {}): SimPolicy {
  const base: SimPolicy = { subject: workerSubject, ...workerRbac(catalogue, defaultPlatformNames) };
  if (options.podDeletes !== false) return base;
  const strip = (rules: PolicyRule[]) => rules.map((r) => (r.resources.includes('pods') ? { ...r, verbs: r.verbs.filter((v) => v !== 'delete') } : r));
  return { ...base, clusterRules: strip(base.clusterRules), namespaceRules: Object.fromEntries(Object.entries(base.namespaceRules).map(([ns, rules]) => [ns, strip(rules)])) };
}

/** Everything of the product, running for real: Slack fake, Bolt bot, Redis, worker process, cluster. */
export interface Stack {
  readonly sim: SimulatedCluster;
  readonly fake: FakeSlackApi;
  readonly bot: SlackBot;
  readonly config: Config;
  readonly eventsUrl: string;
  readonly workerLog: () => string;
  /** Kills the worker process with SIGKILL, as a crashed node would. */
  killWorker(): Promise<void>;
  /** Sends the worker SIGTERM, as the kubelet does; resolves with its exit code and how long it took. */
  terminateWorker(): Promise<{ code: number | null; ms: number }>;
  /** Starts a new worker process, as its Deployment would after a crash. */
  startWorker(): Promise<void>;
  /** A second bot replica on the same Redis; returns its events URL. */
  startSecondBot(): Promise<string>;
  /** The queue of the simulated cluster, to look at jobs. */
  readonly queue: Queue;
  /** A signed `/platform` command; `responseId` names its response URL, so `fake.responses(id)` reads what only the person saw. */
  slash(text: string, user?: string, options?: { timestamp?: number; signature?: string; responseId?: string }): Promise<SignedResponse>;
  /** Clicks a button of `message`; `channel` and `teamId` say where the click claims to come from (default: the card's). */
  click(message: StoredMessage, actionIdPrefix: string, user: string, options?: { responseId?: string; buttonIndex?: number; url?: string; channel?: string; teamId?: string }): Promise<{ response: SignedResponse; responseId: string }>;
  /** The thread of the root message the bot posted for a fix. */
  thread(rootTs: string): StoredMessage[];
  stop(): Promise<void>;
}

/** Waits for a spawned worker to say it started, or fails with what it printed. */
function waitForStart(child: ChildProcess, log: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${log()}`)), 45_000);
    const check = () => {
      if (log().includes('worker started')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${log()}`));
    });
  });
}

/** Starts a worker exactly as deployed: its own process, `platform-medic worker --cluster NAME`. */
export function spawnWorker(env: Record<string, string>, cluster: string): { child: ChildProcess; log: () => string; started: Promise<void> } {
  let out = '';
  const child = spawn(process.execPath, medicArgs('worker', '--cluster', cluster), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const log = () => out;
  return { child, log, started: waitForStart(child, log) };
}

/** Starts the whole product against a fresh simulated cluster. */
/** What a test may change about the stack it starts. */
export interface StackOptions {
  approvers?: string[];
  /** More environment for the bot and the worker (limits, groups, expiry, lock). */
  env?: Record<string, string>;
  /** Another Redis, e.g. one the test restarts. */
  redisUrl?: string;
  recreateDelayMs?: number;
  readyDelayMs?: number;
  /** chat.postMessage rate limit of the fake Slack; off unless a test wants Slack's 429s. */
  rateLimit?: { burst: number; perSecond: number };
  /** Where the bot's log goes, written by the product's own logger at LOG_LEVEL; silent when unset. */
  botLog?: NodeJS.WritableStream;
  /**
   * Socket Mode: the bot starts with SLACK_APP_TOKEN (and no signing secret) and `slash`/`click`
   * arrive as envelopes over its connection; their `status` is 200 once the app acknowledged them.
   */
  socketMode?: boolean;
  /** More clusters besides `sim`, each with its own approvers; no worker serves them. */
  extraClusters?: { name: string; approvers: string[] }[];
  /** The simulator hides its fault annotation from the API (what the doctor sees is then only real signals). */
  hideMarkers?: boolean;
  /** The channel of the scheduled doctor of `sim` (its `doctor.channel`); its worker then starts before the bot, whose first scan needs it. */
  doctorChannel?: string;
}

export async function startStack(name: string, options: StackOptions = {}): Promise<Stack> {
  const sim = await startSimulatedCluster({ recreateDelayMs: options.recreateDelayMs ?? 50, readyDelayMs: options.readyDelayMs ?? 50, policy: workerPolicy(), ...(options.hideMarkers ? { hideMarkers: true } : {}) });
  const dir = mkdtempSync(join(tmpdir(), `medic-${name}-`));
  const kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  const configFile = join(dir, 'platform-medic.yaml');
  const extra = (options.extraClusters ?? []).map((c) => `  - name: ${c.name}\n    kube: { source: kubeconfig, path: ${kubeconfig} }\n    approval: { approvers: [${c.approvers.join(', ')}] }\n`).join('');
  const doctor = options.doctorChannel ? `    doctor: { channel: ${options.doctorChannel} }\n` : '';
  // As `npm start` configures its simulated cluster: the dashboard's addresses are the simulator's own.
  const addresses = Object.entries(sim.addresses).map(([k, v]) => `    ${k}: ${String(v)}\n`).join('');
  writeFileSync(configFile, `clusters:\n  - name: sim\n    kube: { source: kubeconfig, path: ${kubeconfig} }\n${addresses}${doctor}${extra}`);
  const fake = await startFakeSlackApi({ rateLimit: options.rateLimit ?? false });
  const env: Record<string, string> = {
    SLACK_BOT_TOKEN: fake.botToken,
    ...(options.socketMode ? { SLACK_APP_TOKEN: fake.appToken } : { SLACK_SIGNING_SECRET: signingSecret }),
    SLACK_API_URL: fake.apiUrl,
    REDIS_URL: options.redisUrl ?? testRedisUrl,
    PLATFORM_MEDIC_CONFIG: configFile,
    PLATFORM_MEDIC_QUEUE_PREFIX: uniquePrefix(name),
    PLATFORM_MEDIC_APPROVERS: (options.approvers ?? [approver, secondApprover]).join(','),
    PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS: '0.3',
    // A symptom still present after a remedy is looked at again for 1 s, not the default 30.
    PLATFORM_MEDIC_VERIFY_SETTLE_SECONDS: '1',
    PORT: '0',
    // Each worker's health server on a free port: tests run side by side.
    HEALTH_PORT: '0',
    LOG_LEVEL: 'info',
    ...options.env,
  };
  const config = loadConfig({ env });
  const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));
  const botLogger = options.botLog ? createLogger(config.logLevel, options.botLog) : silent;
  // The worker's process starts while the bot does, as their pods would; with a scheduled doctor it is
  // up first, since the bot's first scan needs it.
  let worker = spawnWorker(env, 'sim');
  worker.started.catch(() => undefined); // awaited below, after the bot's start
  if (options.doctorChannel) await worker.started;
  const bot = createSlackBot(config, botLogger);
  const port = await bot.start().catch((err: unknown) => {
    worker.child.kill('SIGKILL');
    throw err;
  });
  const eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  await worker.started;
  const workers = [worker];
  const queue = new Queue(clusterQueueName('sim'), { connection: { url: options.redisUrl ?? testRedisUrl }, prefix: config.queuePrefix });
  queue.on('error', () => undefined);
  const bots: SlackBot[] = [bot];
  let clicks = 0;
  /** A form body sent the way this stack's bot receives Slack: signed HTTP, or an envelope. */
  const send = async (type: 'slash_commands' | 'interactive', body: string, url: string, signed: Parameters<typeof postSigned>[2]): Promise<SignedResponse> => {
    if (!options.socketMode) return postSigned(url, body, signed);
    const { ack } = await deliver(fake, type, type === 'slash_commands' ? slashPayload(body) : interactionPayload(body));
    return { status: 200, text: ack.payload ? JSON.stringify(ack.payload) : '', ...(ack.payload ? { json: ack.payload } : {}) };
  };

  return {
    sim,
    fake,
    bot,
    config,
    eventsUrl,
    queue,
    workerLog: () => workers.map((w) => w.log()).join('\n'),
    async killWorker() {
      worker.child.kill('SIGKILL');
      await new Promise((r) => (worker.child.exitCode !== null || worker.child.signalCode !== null ? r(undefined) : worker.child.once('exit', r)));
    },
    async terminateWorker() {
      const t0 = Date.now();
      const exited = new Promise<number | null>((r) => worker.child.once('exit', (code) => r(code)));
      worker.child.kill('SIGTERM');
      const code = await exited;
      return { code, ms: Date.now() - t0 };
    },
    async startWorker() {
      worker = spawnWorker(env, 'sim');
      workers.push(worker);
      await worker.started;
    },
    async startSecondBot() {
      const second = createSlackBot(config, botLogger);
      const p = await second.start();
      bots.push(second);
      return `http://127.0.0.1:${p}/slack/events`;
    },
    slash(text, user = requester, { responseId, ...opts } = {}) {
      const body = slashCommandBody({ text, user_id: user, channel_id: channel, response_url: fake.responseUrl(responseId ?? `slash-${Math.random()}`, { channel, user }) });
      return send('slash_commands', body, eventsUrl, { secret: signingSecret, ...opts });
    },
    async click(message, prefix, user, opts = {}) {
      const actions = (message.blocks ?? []).filter((b) => b.type === 'actions') as unknown as { block_id: string; elements: { action_id: string; value: string; text: { text: string } }[] }[];
      const matches = actions.flatMap((a) => a.elements.filter((e) => e.action_id.startsWith(prefix)).map((e) => ({ block: a.block_id, e })));
      const hit = matches[opts.buttonIndex ?? 0];
      if (!hit) throw new Error(`no button ${prefix} on message ${message.ts}: ${JSON.stringify(message.blocks)}`);
      const responseId = opts.responseId ?? `click-${++clicks}-${user}`;
      const from = opts.channel ?? channel;
      const body = blockActionsBody({
        user,
        channel: from,
        ...(opts.teamId ? { team_id: opts.teamId } : {}),
        message_ts: message.ts,
        ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
        action_id: hit.e.action_id,
        value: hit.e.value,
        block_id: hit.block,
        button_text: hit.e.text.text,
        response_url: fake.responseUrl(responseId, { channel: from, messageTs: message.ts, user, ...(message.thread_ts ? { threadTs: message.thread_ts } : {}) }),
        message: { text: message.text, blocks: message.blocks },
      });
      return { response: await send('interactive', body, opts.url ?? eventsUrl, { secret: signingSecret }), responseId };
    },
    thread(rootTs) {
      return fake.thread(channel, rootTs);
    },
    async stop() {
      for (const w of workers) {
        if (w.child.exitCode === null && w.child.signalCode === null) {
          w.child.kill('SIGTERM');
          await new Promise((r) => w.child.once('exit', r));
        }
      }
      for (const b of bots) await b.stop();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      // Everything the test wrote under its prefix goes: requests, audit, ledgers, locks, cursors.
      const redis = new Redis(options.redisUrl ?? testRedisUrl, { maxRetriesPerRequest: 1 });
      redis.on('error', () => undefined);
      await deletePrefix(redis, config.queuePrefix).catch(() => undefined);
      redis.disconnect();
      await fake.close();
      await sim.close();
    },
  };
}

/** Asks for a fix with the slash command; resolves with the root message's ts and the approval card. */
export async function startFix(stack: Stack, entry: string): Promise<{ rootTs: string; card: StoredMessage }> {
  const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
  const answer = await stack.slash(`fix ${entry}`);
  if (answer.status !== 200) throw new Error(`/platform fix ${entry} answered ${answer.status}`);
  const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts) && m.text.includes(entry)));
  const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => JSON.stringify(m.blocks ?? []).includes('"action_id":"remedy-approve')), { timeoutMs: 15_000 });
  return { rootTs: root.ts, card };
}

export { FAKE_WORKSPACE };

/** The request id a card's buttons carry. */
export function requestIdOf(card: StoredMessage): string {
  const m = /\\"r\\":\\"(r[a-z0-9]+)\\"/.exec(JSON.stringify(card.blocks));
  if (!m) throw new Error(`no request id on the card ${card.ts}`);
  return m[1]!;
}

/** The jobs of one remedy (plans, runs, continuations) in the given states of the cluster's queue. */
export async function jobsOf(stack: Stack, requestId: string, states: ('waiting' | 'active' | 'delayed' | 'completed' | 'failed')[] = ['waiting', 'active', 'delayed', 'completed', 'failed']) {
  return (await stack.queue.getJobs(states)).filter((j) => j.id?.includes(`-${requestId}-`));
}

/**
 * Ends a remedy a test left open (awaiting approval, waiting, or asking its question) and waits until
 * its entry is free, so the next test may ask for the same fix whatever order the tests run in.
 */
export async function endRemedy(stack: Stack, requestId: string): Promise<void> {
  const request = await stack.bot.coordinator.store.get(requestId);
  if (!request) return;
  await stack.bot.coordinator.cancel(requestId, request.requestedBy);
  const redis = new Redis(stack.config.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    await eventually(async () => (await redis.exists(`${stack.config.queuePrefix}:active:${request.cluster}:${request.entryId}`)) === 0, { what: `${request.entryId} to be free`, timeoutMs: 30_000 });
  } finally {
    redis.disconnect();
  }
}

/**
 * How many Slack requests of a kind (`command`, `action`, `event`, `shortcut`, `view`) the bots behind `urls`
 * have finished handling: the count rises only after every listener of a request has returned. To
 * say that something did not happen, wait until the request that could have done it was handled.
 */
export async function requestsHandled(urls: string | readonly string[], kind: 'command' | 'action' | 'event' | 'shortcut' | 'view'): Promise<number> {
  let sum = 0;
  for (const url of typeof urls === 'string' ? [urls] : urls) {
    const page = await (await fetch(url.replace('/slack/events', '/metrics'))).text();
    for (const line of page.split('\n')) {
      if (line.startsWith('platform_medic_requests_total{') && line.includes(`kind="${kind}"`)) sum += Number(line.split(' ').pop());
    }
  }
  return sum;
}
