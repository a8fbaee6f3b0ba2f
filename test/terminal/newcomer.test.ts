import { PassThrough, Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig, type Config } from '../../src/config.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { startClusterWorker, type ClusterWorker } from '../../src/jobs/worker.js';
import { runTerminal, stripControl } from '../../src/terminal/session.js';
import { buildUpgradeCommand } from '../../src/values/upgrade.js';
import { testRedisUrl, uniquePrefix } from '../support/stack.js';

const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));

const workers: ClusterWorker[] = [];
const prefixes: string[] = [];
const sims: SimulatedCluster[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close(true)));
  const redis = new Redis(testRedisUrl);
  for (const p of prefixes.splice(0)) await deletePrefix(redis, p);
  redis.disconnect();
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

/** A simulated cluster (broken as asked), its worker, and the session's configuration. */
async function cluster(broken: string[] = [], waitSeconds = 0.2): Promise<{ sim: SimulatedCluster; config: Config }> {
  const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
  sims.push(sim);
  for (const b of broken) await sim.break(b);
  const config = loadConfig({
    env: {},
    overrides: { redisUrl: testRedisUrl, queuePrefix: uniquePrefix('terminal-newcomer'), clusters: [{ name: 'simulated', kube: { source: 'simulated' } }], defaultCluster: 'simulated', waitOverrideSeconds: waitSeconds },
  });
  prefixes.push(config.queuePrefix);
  workers.push(startClusterWorker({ config, cluster: config.clusters[0]!, kubeConfig: sim.kubeConfig(), logger: silent, pollMs: 50 }));
  return { sim, config };
}

/** A session fed `script` through a pipe; its transcript. */
async function piped(script: string[], broken: string[] = []): Promise<string> {
  const { sim, config } = await cluster(broken);
  const input = new PassThrough();
  let out = '';
  const output = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
  input.end(script.map((l) => `${l}\n`).join(''));
  await runTerminal({ config, logger: silent, input, output, user: 'terminal:alice', describeCluster: () => `symptoms: ${sim.symptoms().join(', ') || 'none'}` });
  return out;
}

/** Resolves once `text()` matches, or fails with what it was. */
async function until(text: () => string, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !pattern.test(text()); ) {
    if (Date.now() > deadline) throw new Error(`never saw ${pattern}; the terminal showed:\n${text()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('the terminal, as a newcomer meets it', () => {
  it('reads a single pasted error line as a paste, not as an unknown command', async () => {
    const transcript = await piped(['dial tcp: lookup postgres.devtroncd.svc.cluster.local on 10.96.0.10:53: no such host', 'frobnicate']);
    expect(transcript).not.toContain('Unknown command');
    expect(count(transcript, 'No catalogued remedy matches this. I am not proposing a fix.')).toBe(2);
  });

  it('warns every time quit would stop a running remedy, not only the first time', async () => {
    const { config } = await cluster(['build-logs'], 600);
    const input = new PassThrough() as PassThrough & { isTTY: boolean };
    input.isTTY = true;
    let out = '';
    const output = new Writable({ write: (c, _e, cb) => ((out += c.toString()), cb()) });
    const text = () => stripControl(out);
    let ended = false;
    const session = runTerminal({ config, logger: silent, input, output, user: 'terminal:alice', describeCluster: () => '' }).finally(() => (ended = true));
    // Typed one line at a time, as a person does (lines within a few milliseconds are one paste).
    const type = async (line: string) => {
      input.write(`${line}\n`);
      await new Promise((r) => setTimeout(r, 150));
    };
    const warning = 'A remedy is still running, and its worker runs in this session: quitting stops it. Type quit again to quit anyway.';
    await until(text, /platform> /);
    await type('fix build-logs');
    await until(text, /Approve this plan\?/);
    await type('a');
    await until(text, /⏳ Step 3 of 4: Waiting 10 minutes/);
    await type('quit');
    expect(count(text(), warning)).toBe(1);
    await type('cancel');
    await until(text, /🛑 Cancelled by terminal:alice/);
    await type('fix build-logs');
    // The card is printed once per plan, just before its question (the prompt itself is drawn again and again).
    await until(text, /== Approve: Restart the main[^]*== Approve: Restart the main/);
    await type('a');
    await until(text, /⏳ Step 3 of 4: Waiting 10 minutes[^]*⏳ Step 3 of 4: Waiting 10 minutes/);
    await type('quit');
    expect(ended).toBe(false);
    expect(count(text(), warning)).toBe(2);
    await type('quit');
    await session;
    // Two remedies planned, approved and run through the worker, typed line by line: as long as lost-state's.
  }, 90_000);

  it('refuses answer letters and any spelling of the requester as the second approver', async () => {
    const transcript = await piped(['fix gitops-certificate-expired', 'a', 'terminal:alice', 'Alice', 'help', 'bob'], ['gitops-certificate-expired']);
    expect(transcript).not.toContain('Approved by terminal:a;');
    expect(transcript).not.toContain('terminal:terminal:alice');
    expect(transcript).not.toContain('Approved by terminal:Alice');
    expect(transcript).not.toContain('Approved by terminal:help');
    expect(count(transcript, 'That name is not a second person')).toBe(3);
    expect(transcript).toContain('== platform-medic ==');
    expect(transcript).toContain('Approved by terminal:bob; running.');
  });

  it('prints values answers as plain text, the upgrade command ready to paste into a shell', async () => {
    const transcript = await piped(['values upgrade --provider BUNDLED', 'values check --set installer.modules=cicd']);
    expect(transcript).not.toContain('```');
    expect(transcript).not.toContain('`');
    expect(transcript).toContain(buildUpgradeCommand({ provider: 'BUNDLED', iamRole: false, volumeSize: '20Gi' } as Parameters<typeof buildUpgradeCommand>[0]).script);
    expect(transcript.split('\n')).toContain('--set installer.modules={cicd}');
  });

  describe('says things once and in order', () => {
    it('echoes a chosen answer before what it starts, asks the question once, and ticks no task the person has not done', async () => {
      const transcript = await piped(['fix build-logs', 'a', '2', 'd'], ['build-logs']);
      const lines = transcript.split('\n');
      expect(lines).not.toContain('Still failing');
      expect(transcript).toMatch(/Are the build logs visible now\? \[1\] Logs visible \/ \[2\] Still failing > 2\n[^\n]*Planning Restart the message brokers/);
      expect(lines.filter((l) => l.includes('Are the build logs visible now?'))).toHaveLength(1);
      expect(transcript).not.toContain('✅ Step 4 of 4');
      expect(transcript).toContain('👉 Step 4 of 4: Your turn: Trigger a new build.');
    });

    it('ends quietly after quit, and runs a command word typed at an approval prompt', async () => {
      const transcript = await piped(['fix git-sensor-stuck', 'explain', 'fix', 'quit']);
      expect(transcript).not.toContain('Please answer one of');
      expect(transcript).toContain('Which entry? Usage: /platform explain <id>');
      expect(transcript).toContain('Which remedy? Usage: /platform fix <id>');
      expect(transcript).not.toContain('(input ended');
      expect(transcript).not.toMatch(/quit[^]*\(still waiting\)/);
    });

    it('words values answers for the form pasted, and explains without raw placeholders', async () => {
      const transcript = await piped(['values check --set installer.modules=cicd', 'explain 7.5']);
      expect(transcript).toContain('1 problem in these --set flags');
      expect(transcript).not.toContain('this --set flags');
      expect(transcript).toContain('Dashboards');
      expect(transcript).not.toContain('{base_url}');
      expect(transcript).toContain('open <your dashboard URL>/grafana?orgId=2');
    });

    it('plans and runs a checklist without raw placeholders, as explain shows it', async () => {
      const transcript = await piped(['fix dashboards-missing metricsStore=http://prometheus-server.monitoring.svc:80', '1'], ['dashboards-missing']);
      expect(transcript).toContain('What does /grafana?orgId=2 show?');
      expect(transcript).not.toContain('{base_url}');
      // Once on the plan, once in the step's "Your turn".
      expect(count(transcript, 'If the dashboards are still missing, open <your dashboard URL>/grafana?orgId=2.')).toBe(2);
    });
  });
});
