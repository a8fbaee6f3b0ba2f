import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReadinessCheck } from './checks.js';
import type { MedicMetrics } from './metrics.js';

/** The paths the bot and the worker serve; the manifests' probes point at these. */
export const healthPaths = { live: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;

/** A route in the shape Bolt's `customRoutes` takes, also served by the small health server. */
export interface HealthRoute {
  readonly path: string;
  readonly method: string[];
  handler(req: IncomingMessage, res: ServerResponse): void;
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * Liveness, readiness and metrics of one process. Liveness only proves the event loop answers (a
 * dependency that is down must not get the pod restarted); readiness asks every dependency, and
 * says 503 from the moment shutdown begins, so traffic moves away before the server closes.
 */
export class Health {
  private stopping = false;

  constructor(
    private readonly checks: readonly ReadinessCheck[],
    private readonly metrics: MedicMetrics,
  ) {}

  /** From now on /readyz answers 503. */
  beginShutdown(): void {
    this.stopping = true;
  }

  /** Each dependency's state: `ok`, or why not. */
  async readiness(): Promise<{ ready: boolean; checks: Record<string, string> }> {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await c.check();
          return [c.name, 'ok'] as const;
        } catch (err) {
          return [c.name, (err as Error).message.slice(0, 200)] as const;
        }
      }),
    );
    const checks: Record<string, string> = Object.fromEntries(results);
    if (this.stopping) checks.shutdown = 'shutting down';
    return { ready: !this.stopping && results.every(([, v]) => v === 'ok'), checks };
  }

  routes(): HealthRoute[] {
    return [
      { path: healthPaths.live, method: ['GET'], handler: (_req, res) => send(res, 200, 'ok\n') },
      {
        path: healthPaths.ready,
        method: ['GET'],
        handler: (_req, res) => {
          void this.readiness().then((r) => send(res, r.ready ? 200 : 503, `${JSON.stringify(r)}\n`, 'application/json'));
        },
      },
      {
        path: healthPaths.metrics,
        method: ['GET'],
        handler: (_req, res) => {
          void this.metrics.registry.metrics().then(
            (text) => send(res, 200, text, this.metrics.registry.contentType),
            (err: unknown) => send(res, 500, `metrics: ${(err as Error).message}\n`),
          );
        },
      },
    ];
  }
}
