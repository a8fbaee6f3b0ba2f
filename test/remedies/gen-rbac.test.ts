import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runGenRbac } from '../../src/remedies/gen-rbac.js';
import { medicArgs } from '../support/medic-process.js';

/**
 * `npm run gen:rbac -- --config FILE --out DIR`, the command docs/operations.md gives an admin who
 * adds a cluster with other names: run as the admin runs it (tsx on the script, as the npm script
 * does), so what it writes and how it exits are what they see.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');
const run = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, ['src/remedies/gen-rbac.ts', ...args], { cwd: root, env: { PATH: process.env.PATH } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'medic-gen-rbac-'));
  dirs.push(dir);
  return dir;
}

// A child process compiling the catalogue with tsx takes 5–15 s on this shared machine (as test/cli.test.ts).
describe('gen:rbac --config FILE', { timeout: 120_000 }, () => {
  it("writes each configured cluster's RBAC with that cluster's namespaces and names", async () => {
    const dir = await scratch();
    const config = join(dir, 'platform-medic.yaml');
    await writeFile(
      config,
      [
        'clusters:',
        '  - name: prod-eu',
        '    platformNamespace: platform',
        '    ciNamespace: builds',
        '    platformSecret: platform-secret',
        '    manifestConfigMap: eu-manifests',
        '  - name: prod-us',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'rbac');
    const { code, stdout, stderr } = await run('--config', config, '--out', out);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain(`wrote ${join(out, 'rbac-prod-eu.yaml')} (cluster prod-eu: namespaces builds, platform)`);

    const eu = parseAllDocuments(await readFile(join(out, 'rbac-prod-eu.yaml'), 'utf8')).map((d) => d.toJS() as { kind: string; metadata: { namespace?: string }; rules?: { resourceNames?: string[] }[]; subjects?: { namespace: string }[] });
    expect(eu.filter((o) => o.kind === 'Role').map((o) => o.metadata.namespace).sort()).toEqual(['builds', 'platform']);
    expect(eu.find((o) => o.kind === 'ServiceAccount')?.metadata.namespace).toBe('platform');
    expect(eu.filter((o) => o.kind === 'RoleBinding').every((o) => o.subjects?.[0]?.namespace === 'platform')).toBe(true);
    const names = eu.flatMap((o) => o.rules ?? []).flatMap((r) => r.resourceNames ?? []);
    expect(names).toEqual(expect.arrayContaining(['platform-secret', 'eu-manifests']));
    expect(JSON.stringify(eu)).not.toContain('devtroncd');

    const us = await readFile(join(out, 'rbac-prod-us.yaml'), 'utf8');
    expect(us).toBe(await readFile(join(root, 'deploy/rbac.yaml'), 'utf8'));
  });

  it('exits 2 with one line naming the problem when the file is not a valid config', async () => {
    const dir = await scratch();
    const config = join(dir, 'bad.yaml');
    await writeFile(config, 'clusters:\n  - name: Prod EU\n    platformNamespace: ""\n');
    const bad = await run('--config', config, '--out', join(dir, 'rbac'));
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.split('\n')).toEqual([expect.stringMatching(/^gen:rbac: .*clusters\[0\]\.name \(cluster "Prod EU"\): .*clusters\[0\]\.platformNamespace \(cluster "Prod EU"\): /), '']);

    // The same function in this process (a second child would only add start-up time).
    let stderr = '';
    const code = await runGenRbac(['--config', join(dir, 'nowhere.yaml')], { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) } });
    expect({ code, stderr }).toEqual({ code: 2, stderr: `gen:rbac: config file ${join(dir, 'nowhere.yaml')} does not exist\n` });
  });

  // Found by a newcomer's try: an unknown key in a cluster read "unknown key(s) foo at FILE: clusters.0".
  it('names an unknown key of a cluster by the cluster\'s place and name, with the key meant when one is close, exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'medic-gen-rbac-keys-'));
    const config = join(dir, 'platform-medic.yaml');
    const told = async (yaml: string) => {
      await writeFile(config, yaml);
      let stderr = '';
      const code = await runGenRbac(['--config', config, '--out', join(dir, 'rbac')], { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) } });
      return { code, stderr };
    };
    expect(await told('clusters:\n  - name: prod\n    foo: 1\n')).toEqual({ code: 2, stderr: `gen:rbac: ${config}: clusters[0] (name "prod") has an unknown key "foo"\n` });
    expect(await told('clusters:\n  - name: staging\n  - name: prod\n    platfromNamespace: platform\n')).toEqual({
      code: 2,
      stderr: `gen:rbac: ${config}: clusters[1] (name "prod") has an unknown key "platfromNamespace"; did you mean "platformNamespace"?\n`,
    });
    await rm(dir, { recursive: true, force: true });
  });

  // Found by a newcomer's try: --out naming a file said "mkdir failed (EEXIST)" and exited 1.
  it('refuses an --out that is a file with one line naming it, exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'medic-gen-rbac-out-'));
    const config = join(dir, 'platform-medic.yaml');
    await writeFile(config, 'clusters:\n  - name: prod-eu\n');
    const file = join(dir, 'rbac.yaml');
    await writeFile(file, 'taken\n');
    let stderr = '';
    const code = await runGenRbac(['--config', config, '--out', file], { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) } });
    expect({ code, stderr }).toEqual({ code: 2, stderr: `gen:rbac: cannot write ${file}: it is a file, not a directory\n` });
    await rm(dir, { recursive: true, force: true });
  });

  // Found by a newcomer's try: `npm run gen:rbac -- --confg x` named no flag to use, as the other commands do.
  it('names the flag meant for a mistyped one, exit 2', async () => {
    let stderr = '';
    const code = await runGenRbac(['--confg', 'x.yaml'], { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) } });
    expect({ code, stderr }).toEqual({ code: 2, stderr: 'gen:rbac: unknown argument "--confg"; did you mean --config? (usage: gen:rbac [--config FILE [--out DIR]])\n' });
  });

  it('is also the bin\'s subcommand: platform-medic gen-rbac --config FILE --out DIR writes the same file', async () => {
    const dir = await scratch();
    const config = join(dir, 'platform-medic.yaml');
    await writeFile(config, 'clusters:\n  - name: prod-ap\n    ciNamespace: builds\n');
    const r = await promisify(execFile)(process.execPath, medicArgs('gen-rbac', '--config', config, '--out', dir), { cwd: root, env: { PATH: process.env.PATH } });
    expect(r.stdout).toBe(`wrote ${join(dir, 'rbac-prod-ap.yaml')} (cluster prod-ap: namespaces builds, devtroncd)\n`);
    const mine = await readFile(join(dir, 'rbac-prod-ap.yaml'), 'utf8');
    expect(mine).toContain('namespace: builds');
    await runGenRbac(['--config', config, '--out', join(dir, 'again')], { stdout: { write: () => true }, stderr: { write: () => true } });
    expect(await readFile(join(dir, 'again', 'rbac-prod-ap.yaml'), 'utf8')).toBe(mine);
  });
});
