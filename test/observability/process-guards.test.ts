import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs the guarded child process; resolves its JSON log lines as they come and its exit. */
function runChild(failure: 'rejection' | 'exception') {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/process-guards-child.ts', failure], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let pending = '';
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (d: Buffer) => {
    pending += d.toString();
    const parts = pending.split('\n');
    pending = parts.pop()!;
    for (const p of parts) if (p.trim()) lines.push(JSON.parse(p) as Record<string, unknown>);
    waiters.splice(0).forEach((w) => w());
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const line = (msg: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const hit = lines.find((l) => l.msg === msg);
        if (hit) return resolve(hit);
        waiters.push(check);
      };
      void exited.then(() => setImmediate(() => (lines.find((l) => l.msg === msg) ? check() : reject(new Error(`exited without "${msg}":\n${JSON.stringify(lines)}\n${stderr}`)))));
      check();
    });
  return { child, lines, line, exited, stderr: () => stderr };
}

describe('the process guards: what the bot and the worker do with a failure nobody handled', () => {
  it('logs an unhandled rejection and keeps serving', async () => {
    const run = runChild('rejection');
    try {
      const { port } = (await run.line('listening')) as { port: number };
      const logged = await run.line('unhandled promise rejection; the process keeps serving');
      expect(logged).toMatchObject({ level: 50, err: { message: 'posting a report failed: chat.update answered 500' } });
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(await res.text()).toBe('still serving');
      expect(run.child.exitCode).toBeNull();
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  });

  it('logs an uncaught exception and exits 1 although its server still listens, so the orchestrator restarts it', async () => {
    const run = runChild('exception');
    const logged = await run.line('uncaught exception; exiting so that the process is restarted');
    expect(logged).toMatchObject({ level: 60, err: { message: 'the queue listener is in a state it cannot leave' } });
    expect(await run.exited).toEqual({ code: 1, signal: null });
  });
});
