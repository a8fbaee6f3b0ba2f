/**
 * The app-level token revoked while the bot runs over Socket Mode. Slack closes the bot's connection and
 * refuses every new one (apps.connections.open: `token_revoked`). Slack's socket client counts that refusal
 * as one to retry, so it would try again forever while the bot looked alive and answered nothing. The bot
 * says once what happened and how to fix it, and exits with status 1, so that its orchestrator restarts it
 * and the start-up check keeps saying the same until a new token is set.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startFakeSlackApi } from '../fakes/slack-api.js';
import { medicArgs } from '../support/medic-process.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';

describe('Socket Mode: the app-level token revoked while the bot runs', () => {
  it('says so once with the fix and exits 1, instead of retrying the refused connection forever', { timeout: 90_000 }, async () => {
    const fake = await startFakeSlackApi({ botToken: 'xoxb-123', appToken: 'xapp-1-abc-secretpart' });
    const child = spawn(process.execPath, medicArgs('start'), {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        PLATFORM_MEDIC_CONFIG: '',
        SLACK_API_URL: fake.apiUrl,
        SLACK_BOT_TOKEN: 'xoxb-123',
        SLACK_APP_TOKEN: 'xapp-1-abc-secretpart',
        REDIS_URL: testRedisUrl,
        PLATFORM_MEDIC_QUEUE_PREFIX: uniquePrefix('revoked'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    try {
      await fake.waitFor((f) => f.socketMode.openConnections().length === 1, { what: 'the bot to connect over Socket Mode', timeoutMs: 30_000 });
      fake.socketMode.revokeAppToken();
      const code = await Promise.race([exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 45_000))]);
      expect(code, `the bot is still running 45 s after its token was revoked; its output:\n${out}`).toBe(1);
      const lines = out.split('\n').filter((l) => l.includes('Slack refused SLACK_APP_TOKEN'));
      // One line for the person on call: what Slack said, what to do, and that the bot stops.
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('"level":60');
      expect(lines[0]).toContain('Slack refused SLACK_APP_TOKEN (token_revoked) while reconnecting: the token was revoked: generate one on the app\'s \\"Basic Information\\" page');
      expect(lines[0]).toContain('The bot stops (exit 1) to be restarted; each start checks the token again.');
      expect(out).not.toContain('secretpart');
      // It stopped asking: the refused open, at most one more while it stops.
      const afterRevoke = fake.calls('apps.connections.open').filter((c) => c.error === 'token_revoked');
      expect(afterRevoke.length).toBeGreaterThanOrEqual(1);
      expect(afterRevoke.length).toBeLessThanOrEqual(2);
    } finally {
      child.kill();
      await fake.close();
    }
  });
});
