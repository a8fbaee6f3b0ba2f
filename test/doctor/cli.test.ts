import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { runDoctorCommand } from '../../src/commands/doctor-cli.js';
import { InputError } from '../../src/errors.js';
import { medicArgs } from '../support/medic-process.js';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

async function doctor(args: string[]) {
  const out = sink();
  const err = sink();
  const code = await runDoctorCommand(args, { stdout: out.stream as unknown as NodeJS.WriteStream, stderr: err.stream as unknown as NodeJS.WriteStream });
  return { code, out: out.text() };
}

describe('platform-medic doctor', () => {
  it('--json on a fresh simulated cluster: one finding per catalogue entry, none present, exit 0', async () => {
    const r = await doctor(['--json']);
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.out) as { cluster: string; findings: { id: string; ref: string; state: string; evidence: unknown[] }[] };
    expect(parsed.cluster).toBe('simulated');
    expect(parsed.findings.map((f) => f.id)).toEqual(catalogue.map((e) => e.id));
    expect(parsed.findings.every((f) => Object.keys(f).join() === 'id,ref,state,evidence')).toBe(true);
    expect(parsed.findings.filter((f) => f.state === 'present')).toEqual([]);
  });

  it('--broken ENTRY: that entry present with its evidence, exit 1; the text names it with its fix', async () => {
    const r = await doctor(['--json', '--broken', 'install-jobs-failed']);
    expect(r.code).toBe(1);
    const { findings } = JSON.parse(r.out) as { findings: { id: string; state: string; evidence: { object: string; detail: string }[] }[] };
    expect(findings.filter((f) => f.state === 'present').map((f) => f.id)).toEqual(['install-jobs-failed']);
    expect(findings.find((f) => f.id === 'install-jobs-failed')?.evidence[0]).toEqual({ object: 'job/devtroncd/postgresql-migrate-devtron', detail: expect.stringMatching(/^0\/1 completions, BackoffLimitExceeded/) });
    const text = await doctor(['--broken', 'build-logs:broker']);
    expect(text.code).toBe(1);
    // The command line plans nothing itself: it says where the fix is planned, with a command that exists there.
    // In the terminal, on a simulated cluster broken the same way: npm start's would be a fresh, healthy one.
    expect(text.out).toContain('To plan it: "/platform fix build-logs simulated" in Slack, or "fix build-logs simulated" in the terminal (npm run terminal -- --broken build-logs:broker).');
    expect(text.out).not.toContain('Type "fix');
    expect(text.out).toMatch(/pod\/devtroncd\/devtron-\S+ 2 of the last \d+ log lines of devtron, latest: .*Nats Client Connection closed!/);
  });

  // Found by a newcomer's try: a cluster that could not be read was reported as "no symptom present", exit 0.
  it('a cluster it cannot read: no symptom seen, every entry it could not tell named, exit 3; named local as the terminal names it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'medic-doctor-'));
    const kubeconfig = join(dir, 'kubeconfig');
    // Port 9 (discard): nothing answers there on this machine or a CI one.
    writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: prod, context: {cluster: c, user: u}}]\ncurrent-context: prod\n');
    const r = await doctor(['--kubeconfig', kubeconfig]);
    expect(r.code).toBe(3);
    expect(r.out.split('\n')[0]).toMatch(/^Doctor: No symptom of the guide seen in local, but \d+ entries could not be told \(below\)\.$/);
    expect(r.out).toContain('Cannot reach the Kubernetes API at https://127.0.0.1:9 (ECONNREFUSED)');
    const json = await doctor(['--json', '--kubeconfig', kubeconfig]);
    expect(json.code).toBe(3);
    expect((JSON.parse(json.out) as { cluster: string }).cluster).toBe('local');
  });

  it("--broken of an entry in the platform's dashboard or database: present on the fresh simulated cluster, which reaches both", async () => {
    const presentOf = (out: string) => (JSON.parse(out) as { findings: { id: string; state: string; evidence: { object: string; detail: string }[] }[] }).findings.filter((f) => f.state === 'present');
    const dashboards = await doctor(['--json', '--broken', 'dashboards-missing']);
    expect(dashboards.code).toBe(1);
    expect(presentOf(dashboards.out)).toEqual([
      { id: 'dashboards-missing', ref: '7.5', state: 'present', evidence: [{ object: 'organisation/2', detail: expect.stringMatching(/^missing on the metrics dashboard at http:\/\/127\.0\.0\.1:\d+\/grafana, which has "Main Org\." \(id 1\); App Details reads organisation 2$/) }] },
    ]);
    // Entry 16's broken state is a real database's: the doctor runs once it is there.
    const database = await doctor(['--json', '--broken', 'database-drop-blocked']);
    expect(presentOf(database.out).map((f) => [f.id, f.evidence[0]?.detail])).toEqual([
      ['database-drop-blocked', expect.stringMatching(/^DROP DATABASE refused at \S+ \S+ UTC: "is being accessed by other users"; 1 session still open \(application "orders-report"\)$/)],
    ]);
    // The database is this command's own simulated one, gone when it ends: the line to type in the terminal it names
    // leaves the value to that terminal's doctor, rather than name a database the terminal's cluster does not have.
    const text = await doctor(['--broken', 'database-drop-blocked']);
    expect(text.out).toContain('"fix database-drop-blocked simulated database=<database-name>" in the terminal (npm run terminal -- --broken database-drop-blocked). There, `doctor` names the value to fill in.');
    expect(text.out).not.toMatch(/database=medic_demo_/);
  });

  it('refuses bad input as an InputError (exit 2)', async () => {
    await expect(doctor(['--broken', 'no-such-entry'])).rejects.toThrow(InputError);
    await expect(doctor(['--kubeconfig', '/x', '--cluster', 'prod'])).rejects.toThrow(/name a cluster twice/);
    await expect(doctor(['--kubeconfig', '/x', '--broken', 'build-logs'])).rejects.toThrow(/cannot be used with a real one/);
    await expect(doctor(['--frobnicate'])).rejects.toThrow('doctor: unknown flag --frobnicate');
    await expect(doctor(['--kubconfig', '/x'])).rejects.toThrow('doctor: unknown flag --kubconfig; did you mean --kubeconfig?');
  });

  it('exits 2 with one line for bad input, as a user runs it', () => {
    const r = spawnSync(process.execPath, medicArgs('doctor', '--kubeconfig', '/nonexistent/kubeconfig'), {
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', PLATFORM_MEDIC_CONFIG: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).toBe('platform-medic: The kubeconfig /nonexistent/kubeconfig does not exist.\n');
    expect(r.status).toBe(2);
  }, 60_000);
});
