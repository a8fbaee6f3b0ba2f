import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { catalogue } from '../../src/catalogue/index.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { startPrivateRedis, type PrivateRedis } from '../../src/jobs/private-redis.js';
import { metricNames } from '../../src/observability/metrics.js';
import { defaultPlatformNames } from '../../src/platform-names.js';
import { workerSubject } from '../../src/remedies/rbac-manifest.js';
import { workerRbac } from '../../src/remedies/rbac.js';
import { podSpec, readObjects, workloadOf, type Container } from '../deploy/manifests.js';
import { startFakeSlackApi, type FakeSlackApi } from '../fakes/slack-api.js';
import { postSigned, slashCommandBody } from '../support/slack-requests.js';
import { signingSecret } from '../support/slack-workspace.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';

/**
 * The image's start commands, run from the built output (dist/) with the environment the manifests
 * give: what `docker run` would do, without a Docker engine. Only what cannot exist here is swapped:
 * Secrets get test values, the cluster is the simulated one (a kubeconfig instead of in-cluster),
 * ports are free ones (tests run side by side), Slack is the fake.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** The container's environment: literal values as written, Secret references from `secrets`. */
function manifestEnv(c: Container, secrets: Record<string, string>, overrides: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.secretKeyRef && secrets[e.name] !== undefined) env[e.name] = secrets[e.name]!;
    else if (!e.valueFrom?.secretKeyRef?.optional) throw new Error(`no test value for the Secret behind ${e.name}`);
  }
  return { ...env, ...overrides };
}

interface Started {
  child: ChildProcess;
  log: () => string;
}

/** Runs the manifest's command (`node dist/src/cli.js …`) from the repository, as WORKDIR /app. */
function run(c: Container, args: string[], env: Record<string, string>, ready: string): Promise<Started> {
  const [node, ...script] = c.command!;
  expect(node).toBe('node');
  // Only PATH and HOME from this process: the manifests' environment is the whole configuration.
  const child = spawn(process.execPath, [...script, ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${out}`)), 15_000);
    child.stdout!.on('data', () => {
      if (out.includes(ready)) {
        clearTimeout(timer);
        resolve({ child, log: () => out });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${out}`));
    });
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));

async function get(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
}

describe('the built output starts with the manifests\' commands and environment', () => {
  let sim: SimulatedCluster;
  let redis: PrivateRedis;
  let fake: FakeSlackApi;
  const children: ChildProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'medic-built-'));

  beforeAll(async () => {
    // Build once for this file: the same `npm run build` the Dockerfile runs.
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    expect(build.status, build.stdout + build.stderr).toBe(0);
    expect(existsSync(join(root, 'dist/src/cli.js'))).toBe(true);
    sim = await startSimulatedCluster({ policy: { subject: workerSubject(defaultPlatformNames), ...workerRbac(catalogue, defaultPlatformNames) } });
    await sim.writeKubeconfig(join(dir, 'kubeconfig'));
    redis = await startPrivateRedis();
    fake = await startFakeSlackApi({ rateLimit: false });
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    redis?.stop();
    await fake?.close();
    await sim?.close();
  });

  it('worker: `node dist/src/cli.js worker --cluster sim` answers /healthz, /readyz and /metrics, and /readyz goes 503 when Redis is gone', async () => {
    const worker = podSpec(workloadOf(readObjects('base/worker/deployment.yaml'), 'worker')!).containers[0]!;
    // The prod-eu ConfigMap's file, adapted to loopback: the simulated cluster's kubeconfig instead of in-cluster.
    const file = parseYaml(readFileSync(join(root, 'deploy/overlays/example/prod-eu/platform-medic.yaml'), 'utf8')) as { clusters: Record<string, unknown>[] };
    file.clusters[0] = { ...file.clusters[0], name: 'sim', kube: { source: 'kubeconfig', path: join(dir, 'kubeconfig') } };
    writeFileSync(join(dir, 'worker.yaml'), stringify(file));
    const port = await freePort();
    const env = manifestEnv(worker, { REDIS_URL: redis.url }, { PLATFORM_MEDIC_CONFIG: join(dir, 'worker.yaml'), HEALTH_PORT: String(port), PLATFORM_MEDIC_QUEUE_PREFIX: uniquePrefix('built-worker') });
    expect(worker.args!.slice(0, 2)).toEqual(['worker', '--cluster']);
    const started = await run(worker, [...worker.args!.slice(0, 2), 'sim'], env, 'worker started');
    children.push(started.child);
    const base = `http://127.0.0.1:${port}`;
    expect((await get(`${base}/healthz`)).status).toBe(200);
    const ready = await get(`${base}/readyz`);
    expect(JSON.parse(ready.text)).toEqual({ ready: true, checks: { redis: 'ok', kubernetes: 'ok' } });
    expect(ready.status).toBe(200);
    const metrics = (await get(`${base}/metrics`)).text;
    for (const name of Object.values(metricNames)) expect(metrics).toContain(`# TYPE ${name} `);
    expect(metrics).toContain('platform_medic_queue_jobs{cluster="sim",state="waiting"} 0');

    redis.stop();
    let notReady = { status: 0, text: '' };
    for (const end = Date.now() + 5_000; Date.now() < end && notReady.status !== 503; await new Promise((r) => setTimeout(r, 100))) notReady = await get(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(JSON.parse(notReady.text).checks.redis).not.toBe('ok');
    // Alive all the same: restarting the pod would not bring Redis back.
    expect((await get(`${base}/healthz`)).status).toBe(200);
  });

  it('bot: `node dist/src/cli.js bot` serves Slack, /healthz, /readyz and /metrics on its port; on SIGTERM readiness goes 503 first, then it exits 0 within the bound', async () => {
    const bot = podSpec(workloadOf(readObjects('base/bot/deployment.yaml'), 'bot')!).containers[0]!;
    writeFileSync(join(dir, 'bot.yaml'), readFileSync(join(root, 'deploy/overlays/example/control/platform-medic.yaml')));
    const port = await freePort();
    const env = manifestEnv(
      bot,
      { SLACK_BOT_TOKEN: fake.botToken, SLACK_SIGNING_SECRET: signingSecret, REDIS_URL: testRedisUrl },
      { PLATFORM_MEDIC_CONFIG: join(dir, 'bot.yaml'), PORT: String(port), SLACK_API_URL: fake.apiUrl, PLATFORM_MEDIC_QUEUE_PREFIX: uniquePrefix('built-bot'), PLATFORM_MEDIC_SHUTDOWN_DRAIN_SECONDS: '1' },
    );
    const started = await run(bot, bot.args!, env, 'platform-medic bot started');
    children.push(started.child);
    const base = `http://127.0.0.1:${port}`;
    expect((await get(`${base}/healthz`)).status).toBe(200);
    expect(JSON.parse((await get(`${base}/readyz`)).text)).toEqual({ ready: true, checks: { redis: 'ok', slack: 'ok' } });
    const slash = await postSigned(`${base}/slack/events`, slashCommandBody({ text: 'help', user_id: 'U0REQUESTER', channel_id: 'C0PLATFORM', response_url: fake.responseUrl('built-help') }), { secret: signingSecret });
    expect(slash.status).toBe(200);
    const metrics = (await get(`${base}/metrics`)).text;
    for (const name of Object.values(metricNames)) expect(metrics).toContain(`# TYPE ${name} `);
    expect(metrics).toContain('platform_medic_requests_total{kind="command",outcome="ok"} 1');
    expect(metrics).toContain('platform_medic_queue_jobs{cluster="prod-us",state="waiting"} 0');

    const t0 = Date.now();
    started.child.kill('SIGTERM');
    let readyz = { status: 0, text: '' };
    for (let i = 0; i < 20 && readyz.status !== 503; i++) readyz = await get(`${base}/readyz`);
    expect(readyz.status).toBe(503);
    expect((await get(`${base}/healthz`)).status).toBe(200);
    expect(await exited(started.child)).toBe(0);
    expect(Date.now() - t0).toBeLessThan(Number(env.PLATFORM_MEDIC_SHUTDOWN_SECONDS) * 1000);
    expect(started.log()).toContain('"msg":"stopped"');
  });

  it("bot: the running process never loads the Kubernetes client nor the PostgreSQL client (the workers' tools, tens of MB the bot's pod would carry)", async () => {
    const bot = podSpec(workloadOf(readObjects('base/bot/deployment.yaml'), 'bot')!).containers[0]!;
    writeFileSync(join(dir, 'bot.yaml'), readFileSync(join(root, 'deploy/overlays/example/control/platform-medic.yaml')));
    const port = await freePort();
    const modules = join(dir, 'bot-modules.txt');
    writeFileSync(modules, '');
    const recorder = pathToFileURL(join(root, 'test/support/module-recorder.mjs')).href;
    const env = manifestEnv(
      bot,
      { SLACK_BOT_TOKEN: fake.botToken, SLACK_SIGNING_SECRET: signingSecret, REDIS_URL: testRedisUrl },
      { PLATFORM_MEDIC_CONFIG: join(dir, 'bot.yaml'), PORT: String(port), SLACK_API_URL: fake.apiUrl, PLATFORM_MEDIC_QUEUE_PREFIX: uniquePrefix('built-bot-modules'), PLATFORM_MEDIC_SHUTDOWN_DRAIN_SECONDS: '0' },
    );
    const started = await run(bot, bot.args!, { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import ${recorder}`.trim(), MODULE_RECORDER_FILE: modules }, 'platform-medic bot started');
    children.push(started.child);
    // Every kind of request the bot serves, so that nothing it loads on first use is missed.
    const base = `http://127.0.0.1:${port}`;
    for (const text of ['help', 'list', 'explain build-logs', 'fix build-logs prod-eu', 'match build logs are not streaming']) {
      const r = await postSigned(`${base}/slack/events`, slashCommandBody({ text, user_id: 'U0APPROVER', channel_id: 'C0PLATFORM', response_url: fake.responseUrl(`modules-${text}`) }), { secret: signingSecret });
      expect(r.status, text).toBe(200);
    }
    expect((await get(`${base}/metrics`)).status).toBe(200);
    started.child.kill('SIGTERM');
    expect(await exited(started.child)).toBe(0);
    const packages = new Set(readFileSync(modules, 'utf8').split('\n').map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter(Boolean));
    expect(packages).toContain('@slack/bolt');
    expect(packages).toContain('bullmq');
    expect(packages).not.toContain('@kubernetes/client-node');
    expect(packages).not.toContain('pg');
  });

  it('the command line: match, explain and list load neither Bolt, the Kubernetes client, BullMQ, Redis, PostgreSQL nor the schema and YAML libraries; values only the last two', () => {
    const recorder = pathToFileURL(join(root, 'test/support/module-recorder.mjs')).href;
    const paste = join(dir, 'paste.log');
    writeFileSync(paste, 'E1121 10:00:00.000000 1 server.go:1] Failed to update datasource. Reload new version and try again\n');
    /** The packages `node dist/src/cli.js …args` loads, as the bin runs it. */
    const packagesOf = (args: string[]): Set<string> => {
      const modules = join(dir, `cli-modules-${args[0]}.txt`);
      writeFileSync(modules, '');
      const r = spawnSync(process.execPath, ['--import', recorder, 'dist/src/cli.js', ...args], { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), MODULE_RECORDER_FILE: modules } });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const urls = readFileSync(modules, 'utf8').split('\n');
      expect(urls.some((u) => u.endsWith('/dist/src/cli.js'))).toBe(true);
      return new Set(urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((p): p is string => p !== undefined));
    };
    const servers = ['@slack/bolt', '@kubernetes/client-node', 'bullmq', 'ioredis', 'pg'];
    for (const args of [['match', paste], ['explain', 'build-logs'], ['list']]) {
      expect([...packagesOf(args)], args[0]).toEqual([]);
    }
    const values = packagesOf(['values', 'check', join(root, 'test/values/fixtures/azure.yaml')]);
    expect(servers.filter((p) => values.has(p))).toEqual([]);
  });

  it("the build writes the matcher's tables beside the built matcher, and the built matcher reads them: the same tables a fresh compile gives", () => {
    expect(existsSync(join(root, 'dist/src/matching/matcher-tables.bin'))).toBe(true);
    const script = `
      import { catalogue } from './dist/src/catalogue/index.js';
      import { buildAutomaton } from './dist/src/matching/automaton.js';
      import { compile, literalsOf } from './dist/src/matching/literals.js';
      import { loadTables } from './dist/src/matching/tables-file.js';
      const { literals } = literalsOf(catalogue);
      const used = compile(catalogue).automaton, fresh = buildAutomaton(literals);
      const bytes = (v) => (ArrayBuffer.isView(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : Buffer.from(String(v)));
      const same = Object.keys(fresh).every((k) => bytes(used[k]).equals(bytes(fresh[k])));
      process.stdout.write(JSON.stringify({ loaded: loadTables(literals) !== undefined, usedLoaded: used !== fresh && used.delta.buffer.byteLength > used.delta.byteLength, same }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: tmpdir() } });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ loaded: true, usedLoaded: true, same: true });
  });
});
