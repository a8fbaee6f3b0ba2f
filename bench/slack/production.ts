import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { podSpec, readObjects, workloadOf, type Container } from '../../test/deploy/manifests.js';

/**
 * The bot as deploy/base/bot starts it, read from the manifest and the Dockerfile rather than
 * restated: its command, the literal environment the container gets (NODE_OPTIONS included), the
 * Dockerfile's ENV, the memory request and limit and the probes' periods. The benchmark starts
 * exactly that command with that environment, only pointing Slack, Redis and the configuration at
 * its own.
 */

/** What the benchmark needs to start and watch the bot's production form. */
export interface ProductionForm {
  /** The container's command and args, e.g. `node dist/src/cli.js bot`. */
  readonly argv: readonly string[];
  /** Literal `value:` variables of the container, then the Dockerfile's runtime ENV (NODE_ENV). */
  readonly env: Readonly<Record<string, string>>;
  /** The Dockerfile's runtime ENV alone (what any process of the image gets). */
  readonly imageEnv: Readonly<Record<string, string>>;
  readonly memoryRequest: string;
  readonly memoryLimit: string;
  readonly cpuLimit: string;
  /** Seconds between the kubelet's readiness and liveness probes. */
  readonly readinessPeriodSeconds: number;
  readonly livenessPeriodSeconds: number;
}

const root = join(import.meta.dirname, '..', '..');

/** `ENV KEY=value` lines of the Dockerfile's runtime stage (after its last FROM). */
function dockerfileEnv(): Record<string, string> {
  const lines = readFileSync(join(root, 'Dockerfile'), 'utf8').split('\n').map((l) => l.trim());
  const runtime = lines.slice(lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true));
  const env: Record<string, string> = {};
  for (const l of runtime) {
    const m = /^ENV\s+([A-Z_][A-Z0-9_]*)=(\S+)$/i.exec(l);
    if (m) env[m[1]!] = m[2]!;
  }
  return env;
}

export function botProductionForm(): ProductionForm {
  const container: Container = podSpec(workloadOf(readObjects('base/bot/deployment.yaml'), 'bot')!).containers[0]!;
  const imageEnv = dockerfileEnv();
  const env: Record<string, string> = { ...imageEnv };
  for (const v of container.env ?? []) if (v.value !== undefined) env[v.name] = v.value;
  const probes = container as Container & { readinessProbe?: { periodSeconds?: number }; livenessProbe?: { periodSeconds?: number } };
  return {
    argv: [...(container.command ?? []), ...(container.args ?? [])],
    env,
    imageEnv,
    memoryRequest: container.resources?.requests?.memory ?? 'none',
    memoryLimit: container.resources?.limits?.memory ?? 'none',
    cpuLimit: container.resources?.limits?.cpu ?? 'none',
    readinessPeriodSeconds: probes.readinessProbe?.periodSeconds ?? 10,
    livenessPeriodSeconds: probes.livenessProbe?.periodSeconds ?? 10,
  };
}

/** Bytes of a Kubernetes memory quantity (`512Mi`, `200M`, `1Gi`). */
export function memoryBytes(quantity: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity);
  if (!m) return NaN;
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, K: 1e3, M: 1e6, G: 1e9 }[m[2] ?? ''] ?? 1;
  return Number(m[1]) * unit;
}

/** The kernel's view of a process's memory: resident now (VmRSS) and its peak over its life (VmHWM). */
export function kernelRss(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/**
 * The kubelet's readiness and liveness probes at the manifest's periods, and a Prometheus scrape of
 * /metrics every 15 s: what the bot serves besides Slack in its pod.
 */
export function startProbes(port: number, form: ProductionForm): { stop(): void } {
  const agent = new Agent({ keepAlive: false });
  const get = (path: string) => () => {
    const req = request({ host: '127.0.0.1', port, path, agent, timeout: 3_000 }, (res) => res.resume());
    req.on('error', () => undefined);
    req.on('timeout', () => req.destroy());
    req.end();
  };
  const timers = [
    setInterval(get('/readyz'), form.readinessPeriodSeconds * 1000),
    setInterval(get('/healthz'), form.livenessPeriodSeconds * 1000),
    setInterval(get('/metrics'), 15_000),
  ];
  return {
    stop() {
      for (const t of timers) clearInterval(t);
      agent.destroy();
    },
  };
}
