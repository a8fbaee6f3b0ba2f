import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/**
 * How the Slack benchmark's parent talks to its child processes: each child announces `ready` with
 * what the parent needs (a port, a URL), then answers named requests (the child's side: child.mjs).
 * Children log to a file, so the parent's event loop (the load generator's clock) never reads their output.
 */

/** A request from the parent to a child. */
interface IpcRequest {
  readonly id: number;
  readonly type: string;
  readonly arg?: unknown;
}

/** A child's answer to one request, or its `ready` announcement. */
type IpcMessage = { type: 'ready'; info: unknown } | { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** A running child process of the benchmark. */
export interface BenchChild<Ready> {
  readonly name: string;
  readonly process: ChildProcess;
  /** What the child announced when ready. */
  readonly info: Ready;
  call<T>(type: string, arg?: unknown): Promise<T>;
  /** The child's stdout and stderr so far. */
  log(): string;
  /** Asks the child to stop (its `stop` handler), then SIGTERM and SIGKILL if it lingers. */
  stop(): Promise<void>;
}

/** What a child is started with. */
export interface ForkOptions {
  readonly env: Record<string, string | undefined>;
  readonly args?: readonly string[];
  /** stdout and stderr go here. */
  readonly logPath: string;
  /** Extra node flags (e.g. --cpu-prof). */
  readonly nodeFlags?: readonly string[];
  /** `tsx` (default) runs a TypeScript file; `none` runs JavaScript under plain node, as in production. */
  readonly loader?: 'tsx' | 'none';
  readonly readyTimeoutMs?: number;
}

/** Starts `node [--import tsx] <file>` with an IPC channel and waits for it to announce it is ready. */
export async function forkChild<Ready>(name: string, file: string, options: ForkOptions): Promise<BenchChild<Ready>> {
  const fd = openSync(options.logPath, 'a');
  const child = fork(file, [...(options.args ?? [])], {
    execArgv: [...(options.loader === 'none' ? [] : ['--import', 'tsx']), ...(options.nodeFlags ?? [])],
    env: options.env,
    stdio: ['ignore', fd, fd, 'ipc'],
  });
  closeSync(fd);
  const log = (): string => readFileSync(options.logPath, 'utf8');
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then((code) => {
    for (const p of pending.values()) p.reject(new Error(`${name} exited (${code}) during a request:\n${tail(log())}`));
    pending.clear();
  });

  const info = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${options.readyTimeoutMs ?? 30_000} ms:\n${tail(log())}`)), options.readyTimeoutMs ?? 30_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready:\n${tail(log())}`));
    });
    child.on('message', (raw) => {
      const m = raw as IpcMessage;
      if ('type' in m) {
        clearTimeout(timer);
        resolve(m.info as Ready);
        return;
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(`${name}: ${m.error}`));
    });
  });

  return {
    name,
    process: child,
    info,
    log,
    call<T>(type: string, arg?: unknown): Promise<T> {
      const id = ++nextId;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, type, arg } satisfies IpcRequest);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const term = setTimeout(() => child.kill('SIGTERM'), 10_000);
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.send({ id: 0, type: 'stop' } satisfies IpcRequest, () => undefined);
      await exited;
      clearTimeout(term);
      clearTimeout(kill);
    },
  };
}

/** The last lines of a log, for an error message. */
export function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
