import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { assertRedisReachable } from '../src/jobs/redis.js';
import { startFakeSlackApi, type FakeSlackApi } from '../test/fakes/slack-api.js';
import { slashPayload } from '../test/support/slack-envelopes.js';
import { slashCommandBody } from '../test/support/slack-requests.js';
import { writeSection } from './results.js';
import { freePort, keepAliveAgent, postSigned } from './slack/http.js';
import { forkChild, tail, type BenchChild } from './slack/ipc.js';
import { commandAt } from './slack/load.js';
import { percentiles, type Percentiles } from './slack/stats.js';

/**
 * Acknowledgement latency in Socket Mode beside HTTP, measured in one run from Slack's side (the
 * fake Slack, in this process): for HTTP, from the signed POST's start to the response's last byte;
 * for Socket Mode, from writing the envelope to the WebSocket to reading its acknowledgement. The
 * same bot code, each mode in its own process, the same open-loop schedule of `/platform` commands
 * (the Slack bar's mix) sent to both on every tick, their order alternating. Also: how long the bot
 * takes to hold a new connection after Slack's `disconnect` (refresh_requested).
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const CHANNEL = 'C0SOCKETBENCH';
const ACK_BUDGET_MS = 3_000;

export interface SocketBenchOptions {
  readonly perSecond?: number;
  readonly seconds?: number;
  readonly log?: (line: string) => void;
}

interface ModeResult {
  readonly ack: Percentiles;
  readonly errors: number;
}

export interface SocketResults {
  readonly date: string;
  readonly nproc: number;
  readonly node: string;
  readonly loadAtStart: number;
  readonly loadAtEnd: number;
  readonly perSecond: number;
  readonly seconds: number;
  readonly http: ModeResult;
  readonly socket: ModeResult;
  readonly reconnectMs: number;
}

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

/** One envelope over the bot's connection; never rejects, gives up after Slack's 3 s. */
async function viaSocket(fake: FakeSlackApi, body: string): Promise<{ ms: number; error?: string }> {
  const hub = fake.socketMode;
  const envelope = hub.deliver('slash_commands', slashPayload(body));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ACK_BUDGET_MS)));
  const ack = await Promise.race([hub.acknowledged(envelope.envelope_id), late]);
  clearTimeout(timer);
  return ack ? { ms: ack.ms } : { ms: ACK_BUDGET_MS, error: 'timeout' };
}

export async function benchSocketMode(options: SocketBenchOptions = {}): Promise<SocketResults> {
  const log = options.log ?? ((line: string) => console.log(line));
  const perSecond = options.perSecond ?? 50;
  const seconds = options.seconds ?? 20;
  const loadAtStart = loadavg()[0]!;
  await assertRedisReachable(REDIS_URL);
  const dir = mkdtempSync(join(tmpdir(), 'medic-bench-socket-'));
  const secret = randomBytes(16).toString('hex');
  const prefix = `bench-socket-${process.pid}-${randomBytes(3).toString('hex')}`;
  const fake = await startFakeSlackApi({ rateLimit: false });
  const children: BenchChild<{ port: number }>[] = [];
  let ok = false;
  try {
    // The bot never reaches the cluster (no worker runs): fixes are queued and stay there.
    const configFile = join(dir, 'platform-medic.yaml');
    writeFileSync(configFile, `clusters:\n  - name: sim\n    kube: { source: kubeconfig, path: ${join(dir, 'kubeconfig')} }\n`);
    const common = { PATH: process.env.PATH, SLACK_BOT_TOKEN: fake.botToken, SLACK_API_URL: fake.apiUrl, REDIS_URL, PLATFORM_MEDIC_CONFIG: configFile, PLATFORM_MEDIC_APPROVERS: 'U0APPROVER', PLATFORM_MEDIC_DEFAULT_CLUSTER: 'sim', LOG_LEVEL: 'silent' };
    const here = join(import.meta.dirname, 'socket', 'bot-process.ts');
    log('Socket Mode bench: starting the bot twice, over HTTP and in Socket Mode, each in its own process');
    const [http, socket] = await Promise.all([
      forkChild<{ port: number }>('http bot', here, { env: { ...common, SLACK_SIGNING_SECRET: secret, PORT: String(await freePort()), HEALTH_PORT: String(await freePort()), PLATFORM_MEDIC_QUEUE_PREFIX: `${prefix}-http` }, logPath: join(dir, 'http.log') }),
      forkChild<{ port: number }>('socket bot', here, { env: { ...common, SLACK_APP_TOKEN: fake.appToken, HEALTH_PORT: String(await freePort()), PLATFORM_MEDIC_QUEUE_PREFIX: `${prefix}-socket` }, logPath: join(dir, 'socket.log') }),
    ]);
    children.push(http, socket);
    const agent = keepAliveAgent();
    const outcomes = { http: [] as { ms: number; error?: string }[], socket: [] as { ms: number; error?: string }[] };
    const send = (tick: number): Promise<unknown> => {
      const { text, user } = commandAt(tick);
      const body = slashCommandBody({ text, user_id: user, channel_id: CHANNEL, response_url: fake.responseUrl(`bench-${tick}`, { channel: CHANNEL, user }) });
      const overHttp = () => postSigned(http.info.port, agent, body, secret, ACK_BUDGET_MS).then((o) => outcomes.http.push({ ms: o.ms, ...(o.status === 200 ? {} : { error: o.error ?? `status ${o.status}` }) }));
      const overSocket = () => viaSocket(fake, body).then((o) => outcomes.socket.push(o));
      return Promise.all(tick % 2 === 0 ? [overHttp(), overSocket()] : [overSocket(), overHttp()]);
    };
    const run = async (from: number, ticks: number): Promise<void> => {
      const start = performance.now();
      const inFlight: Promise<unknown>[] = [];
      for (let i = 0; i < ticks; i++) {
        const due = start + (i * 1000) / perSecond;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        inFlight.push(send(from + i));
      }
      await Promise.all(inFlight);
    };
    log(`Socket Mode bench: warm-up, ${perSecond * 2} commands to each`);
    await run(0, perSecond * 2);
    outcomes.http.length = 0;
    outcomes.socket.length = 0;
    log(`Socket Mode bench: ${perSecond} /platform commands per second for ${seconds} s to each, side by side`);
    await run(perSecond * 2, perSecond * seconds);
    agent.destroy();

    log('Socket Mode bench: Slack asks the bot to reconnect (disconnect, refresh_requested)');
    const hub = fake.socketMode;
    const opened = hub.connections.length;
    const t0 = performance.now();
    hub.refresh('refresh_requested');
    await fake.waitFor(() => hub.connections.length > opened && hub.openConnections().length > 0, { timeoutMs: 30_000, what: 'a new connection' });
    const reconnectMs = performance.now() - t0;

    const summarise = (o: { ms: number; error?: string }[]): ModeResult => ({ ack: percentiles(o.filter((x) => !x.error).map((x) => x.ms)), errors: o.filter((x) => x.error).length });
    ok = true;
    return {
      date: new Date().toISOString().slice(0, 10),
      nproc: availableParallelism(),
      node: process.version,
      loadAtStart,
      loadAtEnd: loadavg()[0]!,
      perSecond,
      seconds,
      http: summarise(outcomes.http),
      socket: summarise(outcomes.socket),
      reconnectMs,
    };
  } catch (err) {
    for (const c of children) log(`--- ${c.name} log ---\n${tail(c.log())}`);
    throw err;
  } finally {
    await Promise.allSettled(children.map((c) => c.stop()));
    await fake.close();
    await removeKeys(`${prefix}-http`).catch(() => undefined);
    await removeKeys(`${prefix}-socket`).catch(() => undefined);
    if (ok) rmSync(dir, { recursive: true, force: true });
  }
}

/** The "Socket Mode" section of RESULTS.md; the bar is Slack's: every acknowledgement within 3 s. */
export function socketSection(r: SocketResults): { body: string; pass: boolean } {
  const f = (n: number): string => n.toFixed(2);
  const row = (name: string, m: ModeResult) => `| ${name} | ${m.ack.n} | ${f(m.ack.p50)} | ${f(m.ack.p99)} | ${f(m.ack.max)} | ${m.errors} |`;
  const pass = r.http.errors === 0 && r.socket.errors === 0 && r.socket.ack.max < ACK_BUDGET_MS && r.http.ack.max < ACK_BUDGET_MS;
  const body = `Run ${r.date} on ${r.nproc} cores (nproc), Node ${r.node}, 1-minute load average ${r.loadAtStart.toFixed(2)} at the start, ${r.loadAtEnd.toFixed(2)} at the end.
Produced by \`npm run bench -- socket\` (bench/socket.ts): the same bot code twice, one process over HTTP (Bolt's
HTTP receiver, signed requests on a keep-alive connection) and one in Socket Mode (the fake Slack's
WebSocket), ${r.perSecond} \`/platform\` commands per second for ${r.seconds} s to each on one open-loop schedule (the
Slack bar's mix: 8 in 10 answered in the acknowledgement, 2 in 10 fixes), timed from Slack's side.
The bots run under tsx, not in the manifest's production form: the ratio is the figure, not the absolutes.

| mode | acknowledged | p50 ms | p99 ms | max ms | not acknowledged within 3 s |
|---|---|---|---|---|---|
${row('HTTP', r.http)}
${row('Socket Mode', r.socket)}

Socket Mode / HTTP: p50 ${f(r.socket.ack.p50 / r.http.ack.p50)}×, p99 ${f(r.socket.ack.p99 / r.http.ack.p99)}×. Bar (Slack's): every command acknowledged within 3 s in both modes: ${pass ? 'PASS' : 'FAIL'}.

After Slack's \`disconnect\` (refresh_requested) the bot held a new connection ${(r.reconnectMs / 1000).toFixed(1)} s later: the
Socket Mode client closes the old connection, then waits its client ping timeout (5 s) before asking
apps.connections.open again. A command sent in that gap finds no connection of that replica
(docs/operations.md: run two replicas in Socket Mode).`;
  return { body, pass };
}

export async function recordSocketBench(resultsPath: string, options: SocketBenchOptions = {}): Promise<boolean> {
  const { body, pass } = socketSection(await benchSocketMode(options));
  writeSection(resultsPath, 'Socket Mode', body);
  console.log(body);
  if (!pass) process.exitCode = 1;
  return pass;
}

/** `npx tsx bench/socket.ts` runs this section alone. */
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await recordSocketBench(join(import.meta.dirname, 'RESULTS.md'));
}
