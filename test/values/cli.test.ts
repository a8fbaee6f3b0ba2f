import { spawnSync } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/core/parse.js';
import { runValuesCommand, valuesTerminalAnswer } from '../../src/commands/values-cli.js';
import { medicArgs } from '../support/medic-process.js';

const fixtures = join(import.meta.dirname, 'fixtures');

/** Runs `platform-medic values …` in-process, with standard input `stdin`. */
async function values(args: string[], stdin = '') {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d: Buffer) => (stdout += d.toString()));
  err.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await runValuesCommand(args, { stdin: Readable.from([stdin]), stdout: out, stderr: err });
  return { code, stdout, stderr };
}

describe('platform-medic values', () => {
  it('check FILE: exit 0 on a clean file, 1 with problems, 2 on bad input', async () => {
    expect(await values(['check', join(fixtures, 'azure.yaml')])).toMatchObject({ code: 0, stdout: expect.stringContaining('No problems found in this values file') });
    const bad = await values(['check', join(fixtures, 'gcp-raw-json.yaml')]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('secrets.BLOB_STORAGE_GCP_CREDENTIALS_JSON');
    expect(await values(['check', join(fixtures, 'missing.yaml')])).toMatchObject({ code: 2, stderr: expect.stringContaining('no such file') });
    expect(await values(['check', '--verbose'])).toMatchObject({ code: 2 });
    expect(await values(['check'], 'not: [yaml')).toMatchObject({ code: 2 });
  });

  it('a mistyped subcommand: exit 2, naming the closest one before the usage, as an unknown command does', async () => {
    const r = await values(['chek', 'values.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('platform-medic values: unknown subcommand "chek". Did you mean "check"?');
  });

  it('upgrade with fields missing: exit 2 and one line on standard error naming every missing flag', async () => {
    const r = await values(['upgrade', '--provider', 'S3']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'platform-medic values upgrade: --logs-bucket: The logs bucket is needed for this provider; --cache-bucket: The cache bucket is needed for this provider; --logs-region: The logs bucket region is needed for this provider; --cache-region: The cache bucket region is needed for this provider\n',
    );
  });

  it('check --json reads standard input and prints one object of problems', async () => {
    const r = await values(['check', '--json', '--no-iam-role'], 'configs:\n  BLOB_STORAGE_PROVIDER: S3\n  DEFAULT_CACHE_BUCKET: c-bucket\n  DEFAULT_BUILD_LOGS_BUCKET: l-bucket\n  DEFAULT_CACHE_BUCKET_REGION: us-east-1\n  DEFAULT_CD_LOGS_BUCKET_REGION: us-east-1\n');
    expect(r.code).toBe(1);
    const body = JSON.parse(r.stdout) as { problems: { key: string; problem: string; rule: string; fix: string }[] };
    expect(body.problems).toEqual([
      { key: 'secrets.BLOB_STORAGE_S3_ACCESS_KEY', problem: expect.stringContaining('does not grant S3 access'), rule: '2.2 rule 2', fix: 'secrets:\n  BLOB_STORAGE_S3_ACCESS_KEY: <ACCESS_KEY>' },
      { key: 'secrets.BLOB_STORAGE_S3_SECRET_KEY', problem: expect.any(String), rule: '2.2 rule 2', fix: 'secrets:\n  BLOB_STORAGE_S3_SECRET_KEY: <SECRET_KEY>' },
    ]);
  });

  it('upgrade prints the command for flags that mirror the modal, and refuses missing ones', async () => {
    const r = await values(['upgrade', '--provider', 's3', '--logs-bucket', 'acme-logs', '--cache-bucket', 'acme-cache', '--logs-region', 'us-east-1', '--cache-region=us-east-1', '--iam-role']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--set configs.DEFAULT_CD_LOGS_BUCKET_REGION=us-east-1');
    expect(r.stdout).not.toContain('ACCESS_KEY');
    const missing = await values(['upgrade', '--provider', 'AZURE']);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('--azure-account: The storage account name is needed') });
  });

  it('upgrade refuses a flag given twice with two values, naming both, rather than letting the last one win unseen', async () => {
    const s3 = ['--logs-bucket', 'acme-logs', '--cache-bucket', 'acme-cache', '--logs-region', 'us-east-1', '--cache-region', 'us-east-1'];
    expect(await values(['upgrade', '--provider', 'AZURE', '--provider', 'S3', ...s3])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'platform-medic values upgrade: --provider is given twice (AZURE, then S3); give it once\n',
    });
    expect(await values(['upgrade', '--provider', 'S3', ...s3, '--logs-bucket=other-logs'])).toMatchObject({
      code: 2,
      stderr: 'platform-medic values upgrade: --logs-bucket is given twice (acme-logs, then other-logs); give it once\n',
    });
    // The same value twice says the same thing: nothing is lost.
    expect(await values(['upgrade', '--provider', 'S3', '--provider', 'S3', ...s3])).toMatchObject({ code: 0 });
    // A word that is not a flag is not read as a mistyped flag, nor is a value given to the switch --iam-role.
    expect(await values(['upgrade', 'S3'])).toMatchObject({ code: 2, stderr: 'platform-medic values upgrade: unexpected argument S3 (values upgrade takes flags only, such as --provider S3)\n' });
    expect(await values(['upgrade', '--provider', 'S3', ...s3, '--iam-role=no'])).toMatchObject({ code: 2, stderr: 'platform-medic values upgrade: --iam-role takes no value\n' });
  });

  it('check refuses --iam-role with --no-iam-role: they say opposite things, and one would be dropped unseen', async () => {
    expect(await values(['check', '--iam-role', '--no-iam-role', join(fixtures, 's3-keys.yaml')])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'platform-medic values check: --iam-role and --no-iam-role say opposite things; give one of them\n',
    });
  });

  it('check prints plain text: corrected lines bare, ready to paste, and worded for the form pasted', async () => {
    const r = await values(['check'], '--set installer.modules=cicd --set configs.BLOB_STORAGE_PROVIDER=s3');
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('`');
    expect(r.stdout).toMatch(/\d+ problems? in these --set flags/);
    expect(r.stdout.split('\n')).toContain('--set installer.modules={cicd}');
  });

  it('is wired into the platform-medic command itself', () => {
    const r = spawnSync(process.execPath, medicArgs('values', 'check', join(fixtures, 's3-keys.yaml')), { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('No problems found');
  });
});

describe('the terminal adapter and /platform parse `values` the same way', () => {
  it('keeps the pasted lines and reads the leading options', () => {
    expect(parseCommand('values check --iam-role\ninstaller:\n  modules: [cicd]')).toEqual({ kind: 'values', action: 'check', text: 'installer:\n  modules: [cicd]', nodeIamRole: true });
    expect(parseCommand('values upgrade')).toEqual({ kind: 'values', action: 'upgrade', args: [] });
    expect(parseCommand('values check')).toMatchObject({ kind: 'usage' });
    expect(parseCommand('values frobnicate')).toMatchObject({ kind: 'usage' });
  });

  it('refuses --iam-role with --no-iam-role, in either order, as the command line does', () => {
    for (const flags of ['--iam-role --no-iam-role', '--no-iam-role --iam-role']) {
      expect(parseCommand(`values check ${flags}\ninstaller:\n  modules: [cicd]`)).toEqual({
        kind: 'usage',
        message: expect.stringMatching(/^`--iam-role` and `--no-iam-role` say opposite things; give one of them\. Usage:/),
      });
    }
    // Given twice alike, it says one thing.
    expect(parseCommand('values check --iam-role --iam-role\ninstaller:\n  modules: [cicd]')).toMatchObject({ kind: 'values', nodeIamRole: true });
  });

  it('the terminal refuses an upgrade flag given twice, as the command line does', () => {
    const upgrade = parseCommand('values upgrade --provider GCP --provider BUNDLED');
    if (upgrade.kind !== 'values') throw new Error('not a values command');
    expect(valuesTerminalAnswer(upgrade)).toBe('--provider is given twice (GCP, then BUNDLED); give it once');
  });

  it('answers `values check <text>` and `values upgrade --provider …` as text', () => {
    const check = parseCommand('values check --set installer.modules=cicd');
    if (check.kind !== 'values') throw new Error('not a values command');
    expect(valuesTerminalAnswer(check)).toContain('installer.modules is the string "cicd", not a list');
    const upgrade = parseCommand('values upgrade --provider BUNDLED');
    if (upgrade.kind !== 'values') throw new Error('not a values command');
    expect(valuesTerminalAnswer(upgrade)).toContain('--set minio.enabled=true');
  });
});
