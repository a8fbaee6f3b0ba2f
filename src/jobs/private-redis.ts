import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { assertRedisReachable } from './redis.js';

/** A Redis server started for one terminal session: nothing on disk, gone when the session ends. */
export interface PrivateRedis {
  readonly url: string;
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** True when a `redis-server` binary is on the PATH. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts `redis-server` on a free loopback port, without persistence, and waits until it answers. A
 * small shell watchdog stops it when this process dies, even by SIGKILL, so none is left behind.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const watchdog = 'redis-server --port "$1" --bind 127.0.0.1 --save "" --appendonly no & r=$!; trap \'kill $r 2>/dev/null\' TERM INT; while kill -0 "$2" 2>/dev/null && kill -0 $r 2>/dev/null; do sleep 1; done; kill $r 2>/dev/null';
  const child: ChildProcess = spawn('sh', ['-c', watchdog, 'private-redis', String(port), String(process.pid)], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stop);
  for (let i = 0; i < 50; i++) {
    try {
      await assertRedisReachable(url, 500);
      return { url, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  stop();
  throw new Error(`redis-server did not start on port ${port}`);
}
