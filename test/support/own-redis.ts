import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/**
 * A redis-server of one test, on a free loopback port and without persistence, that the test may
 * kill and start again: the shared Redis of the machine is never restarted (other tests use it).
 */
export interface OwnRedis {
  readonly url: string;
  readonly port: number;
  /** Kills it with SIGKILL, as a crashed node would; its data is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

async function answers(port: number, password?: string): Promise<boolean> {
  const probe = new Redis({ port, password, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** `password`: the server requires it (`--requirepass`); `url` does not carry it, as a user who left it out. */
export async function startOwnRedis(options: { password?: string } = {}): Promise<OwnRedis> {
  const port = await freePort();
  // An empty directory: a dump file in the working directory would be loaded at start.
  const dir = mkdtempSync(join(tmpdir(), 'medic-own-redis-'));
  let child: ChildProcess | undefined;
  const own: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', ...(options.password ? ['--requirepass', options.password] : [])], { stdio: 'ignore' });
      for (let i = 0; i < 100; i++) {
        if (await answers(port, options.password)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`redis-server did not start on port ${port}`);
    },
    async kill() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    stop: () => own.kill(),
  };
  await own.start();
  return own;
}
