import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { buildUpgradeCommand } from '../../src/values/upgrade.js';
import { pipedSessions } from '../support/terminal-session.js';

const sessions = pipedSessions('terminal-newcomer');
afterEach(() => sessions.cleanup());

/** A simulated cluster, broken as asked, closed at cleanup. */
async function cluster(broken: string[] = []): Promise<SimulatedCluster> {
  const sim = sessions.own(await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 }));
  for (const b of broken) await sim.break(b);
  return sim;
}

/** A session fed `script` through a pipe; its transcript. */
async function piped(script: string[], broken: string[] = []): Promise<string> {
  return sessions.run(await cluster(broken), script);
}

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('the terminal, as a newcomer meets it', () => {
  it('reads a single pasted error line as a paste, not as an unknown command', async () => {
    const transcript = await piped(['dial tcp: lookup postgres.devtroncd.svc.cluster.local on 10.96.0.10:53: no such host', 'frobnicate']);
    expect(transcript).not.toContain('Unknown command');
    expect(count(transcript, 'No catalogued remedy matches this. I am not proposing a fix.')).toBe(2);
  });

  it('answers /platform typed alone with the help, as Slack answers it, rather than with nothing', async () => {
    const transcript = await piped(['/platform', '/platform   ']);
    expect(count(transcript, '== platform-medic ==')).toBe(2);
  });

  it('reads nothing after quit in a piped script, and says how many lines it left', async () => {
    const transcript = await piped(['quit', 'explain git-sensor-stuck', 'list']);
    expect(transcript).toContain('(quit: the 2 lines after it were not read)');
    expect(transcript).not.toContain('Remedies in the catalogue');
    expect(transcript).not.toContain('Latest commit not fetched');
  });

  it('warns every time quit would stop a running remedy, not only the first time', async () => {
    // The guide's waits kept long, so the remedy is still running when quit is typed.
    const session = sessions.typed(await cluster(['build-logs']), 600);
    const { text, type } = session;
    let ended = false;
    void session.ended.finally(() => (ended = true));
    // It names Ctrl-C too: a person who pressed Ctrl-C was told only to type quit (a newcomer's finding).
    const warning = 'A remedy is still running, and its worker runs in this session: quitting stops it. Type quit (or press Ctrl-C) again to quit anyway.';
    await session.until(/platform> /);
    await type('fix build-logs');
    await session.until(/Approve this plan\?/);
    await type('a');
    await session.until(/⏳ Step 3 of 4: Waiting 10 minutes/);
    // Ctrl-C, as a terminal sends it.
    await type('\x03');
    expect(count(text(), warning)).toBe(1);
    await type('cancel');
    await session.until(/🛑 Cancelled by terminal:alice/);
    await type('fix build-logs');
    // The card is printed once per plan, just before its question (the prompt itself is drawn again and again).
    await session.until(/== Approve: Restart the main[^]*== Approve: Restart the main/);
    await type('a');
    await session.until(/⏳ Step 3 of 4: Waiting 10 minutes[^]*⏳ Step 3 of 4: Waiting 10 minutes/);
    await type('quit');
    expect(ended).toBe(false);
    expect(count(text(), warning)).toBe(2);
    await type('quit');
    await session.ended;
    // The quit is said for what it did to the remedy, not as an end of input that waits for it: nothing waits.
    expect(text()).not.toContain('(input ended; waiting for the running remedies to finish)');
    expect(text()).toMatch(/\(quit: build-logs r[a-z0-9]{10} stops here: the steps it finished stay done, nothing more of it runs\)/);
    // Two remedies planned, approved and run through the worker, typed line by line: as long as lost-state's.
  }, 90_000);

  it('says what quitting does to a remedy waiting for approval, rather than leaving silently', async () => {
    const transcript = await piped(['fix git-sensor-stuck', 'quit'], ['git-sensor-stuck']);
    expect(transcript).toMatch(/\[git-sensor-stuck r[a-z0-9]{10}\] Left unapproved: nothing of it ran, and it ends with this session\./);
  });

  it('checks a values file pasted after values check (or an error after match) as that command, not as an error to match', async () => {
    // Found by a newcomer's try: a values file pasted after `values check` was answered "No catalogued remedy matches this".
    const session = sessions.typed(await cluster());
    await session.until(/platform> /);
    await session.type('values check configs:\n  BLOB_STORAGE_PROVIDER: S3\n  DEFAULT_CACHE_BUCKET: my-cache');
    await session.until(/problems in this values file/);
    expect(session.text()).toContain('configs.DEFAULT_BUILD_LOGS_BUCKET is missing; S3 blob storage needs it');
    await session.type('match\nError: UPGRADE FAILED: cannot patch "postgresql-postgresql" with kind StatefulSet: StatefulSet.apps "postgresql-postgresql" is invalid: spec: Forbidden: updates to statefulset spec for fields other than \'replicas\' are forbidden');
    await session.until(/upgrade-cannot-patch-database/);
    expect(session.text()).not.toContain('No catalogued remedy matches this');
    await session.type('quit');
    await session.ended;
  }, 60_000);

  it("names the state of the remedy that holds an entry in words, not as the state's identifier", async () => {
    // Found by a newcomer's try: "build-logs is already being fixed on simulated (asked by …, now awaiting-approval)".
    const transcript = await piped(['fix build-logs', 'fix build-logs', 'd']);
    expect(transcript).toContain('build-logs is already being fixed on simulated (asked by terminal:alice, now awaiting approval).');
    expect(transcript).not.toContain('awaiting-approval');
  });

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
