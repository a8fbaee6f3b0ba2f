import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Runs the command-line entry point as a user would, with only the given environment. */
function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PLATFORM_MEDIC_CONFIG: '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('the platform-medic command', () => {
  it('says how to start Redis when it cannot reach it, and exits 1', () => {
    const r = cli(['worker', '--cluster', 'default'], { REDIS_URL: 'redis://:s3cret-pass@127.0.0.1:1' });
    expect(r.code).toBe(1);
    expect(r.err).toContain('Cannot reach Redis at redis://:***@127.0.0.1:1');
    expect(r.err).toContain('redis-server --daemonize yes');
    expect(r.err).not.toContain('s3cret-pass');
  });

  it('stops at start with one clear line when REDIS_URL selects a database index this Redis does not have', () => {
    const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    url.pathname = '/99';
    const r = cli(['worker', '--cluster', 'default'], { REDIS_URL: url.toString() });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`REDIS_URL selects database 99, but the Redis at ${url.toString()} has 16 (its "databases" setting): use an index from 0 to 15.\n`);
  });

  it('stops on a wrong configuration, naming the key, without printing the secret', () => {
    const r = cli(['bot'], { SLACK_BOT_TOKEN: 'xoxb-123-very-secret' });
    expect(r.code).toBe(1);
    expect(r.err).toContain('SLACK_SIGNING_SECRET (slack.signingSecret): SLACK_SIGNING_SECRET is required with SLACK_BOT_TOKEN');
    expect(r.err).not.toContain('very-secret');
  });

  it('names the configured clusters when asked for a worker of an unknown one', () => {
    const r = cli(['worker', '--cluster', 'prod-us']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('There is no cluster "prod-us". Configured clusters: default.');
  });

  it('prints its usage, and rejects an unknown command with exit code 2', () => {
    expect(cli(['--help']).out).toContain('platform-medic worker --cluster NAME');
    const r = cli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Unknown command "frobnicate"');
  });
});

describe('platform-medic match and explain', () => {
  it('prints exactly one JSON object with the verdict, the entry, its guide ref and the evidence lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'medic-match-'));
    const file = join(dir, 'paste.log');
    writeFileSync(file, 'I1121 starting\nE1121 10:00:00.000000 1 server.go:1] Failed to update datasource. Reload new version and try again\n');
    const r = cli(['match', '--json', file]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { verdict: string; matches: { id: string; ref: string; title: string; confidence: number; evidence: { line: number; text: string }[] }[] };
    expect(out.verdict).toBe('match');
    expect(out.matches[0]).toMatchObject({ id: 'datasource-update-failed', ref: '7.8', evidence: [{ line: 2, text: expect.stringContaining('Failed to update datasource') }] });
    expect(out.matches[0]!.confidence).toBeGreaterThan(0);
    expect(out.matches[0]!.confidence).toBeLessThanOrEqual(1);
    expect(Object.keys(out).sort()).toEqual(['matches', 'verdict']);
  });

  it('reads standard input, and exits 1 with an empty list on no match', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'match', '--json'], { input: 'Killed: OOMKilled container app', encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ verdict: 'no-match', matches: [] });
  });

  it('refuses a missing file and an unknown flag with exit code 2', () => {
    expect(cli(['match', '/nonexistent/x.log']).err).toContain('cannot read /nonexistent/x.log: no such file');
    expect(cli(['match', '--yaml']).code).toBe(2);
  });

  it('explains an entry, and answers an unknown id with the closest ones', () => {
    expect(cli(['explain', 'git-sensor-stuck']).out).toContain('Delete pod git-sensor-0 so that its stateful set starts it again');
    const r = cli(['explain', 'gitsensor']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Closest: git-sensor-stuck');
  });
});

describe('starting the bot', () => {
  it('stops with a clear message when Slack cannot be reached to check the token', () => {
    const r = cli(['bot'], { SLACK_BOT_TOKEN: 'xoxb-1-2-secretpart', SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef0123456789', SLACK_API_URL: 'http://127.0.0.1:9/api/' });
    expect(r.code).toBe(1);
    expect(r.err).toContain("Cannot reach Slack's Web API at http://127.0.0.1:9/api/ to check the bot token");
    expect(r.err).not.toContain('secretpart');
  });
});
