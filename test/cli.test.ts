import { spawnSync } from 'node:child_process';
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
