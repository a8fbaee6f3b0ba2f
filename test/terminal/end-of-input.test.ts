import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { medicArgs } from '../support/medic-process.js';
import { pipedSessions } from '../support/terminal-session.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';

const sessions = pipedSessions('terminal-eof');
const kills: (() => void)[] = [];
afterEach(async () => {
  for (const kill of kills.splice(0)) kill();
  await sessions.cleanup();
});

/** Resolves once `text()` matches, or fails with what it was. */
async function until(text: () => string, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !pattern.test(text()); ) {
    if (Date.now() > deadline) throw new Error(`never saw ${pattern}; the terminal showed:\n${text()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A typed session on a cluster broken for build-logs, asking to approve `fix build-logs`. */
async function atApprovalPrompt() {
  const sim = sessions.own(await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 }));
  await sim.break('build-logs');
  const session = sessions.typed(sim);
  await session.until(/platform> /);
  await session.type('fix build-logs');
  await session.until(/Approve this plan\? \[a\]pprove \/ \[d\]eny > $/);
  return session;
}

const leftUnapproved = /\(input ended\) \[build-logs r[a-z0-9]{10}\] Left unapproved: nothing of it ran, and it ends with this session\.\n/;

describe('the end of input at an approval prompt', () => {
  it('as a process whose standard input closes while it asks for approval: says the remedy is left unapproved and exits 0', async () => {
    let out = '';
    const child = spawn(process.execPath, medicArgs('terminal', '--broken', 'build-logs'), {
      env: { ...process.env, REDIS_URL: testRedisUrl, PLATFORM_MEDIC_QUEUE_PREFIX: uniquePrefix('terminal-eof'), PLATFORM_MEDIC_CONFIG: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    kills.push(() => void child.kill('SIGKILL'));
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.stdin!.write('fix build-logs\n');
    await until(() => out, /Approve this plan\? \[a\]pprove \/ \[d\]eny/);
    child.stdin!.end();
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]);
    expect(code, out).toBe(0);
    expect(out).toMatch(leftUnapproved);
    expect(out).not.toContain('not answered');
    // Nothing after it asks again.
    expect(out.slice(out.search(leftUnapproved))).not.toContain('Approve this plan?');
  }, 60_000);

  it('at a terminal (Ctrl-D): the prompt is not drawn again; the session ends saying what became of the remedy', async () => {
    const session = await atApprovalPrompt();
    session.end();
    await session.ended;
    const text = session.text();
    expect(text).toMatch(leftUnapproved);
    // The message is the last thing shown: the approval prompt is not drawn once more below it.
    expect(text.slice(text.search(leftUnapproved))).toMatch(/^[^\n]*\n$/);
  });

  it('quit at the prompt says the same of the remedy it leaves', async () => {
    const session = await atApprovalPrompt();
    await session.type('quit');
    await session.ended;
    expect(session.text()).toMatch(/\[build-logs r[a-z0-9]{10}\] Left unapproved: nothing of it ran, and it ends with this session\.\n$/);
  });
});
