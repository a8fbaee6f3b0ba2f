import { createServer, type Server } from 'node:http';
import type { HealthRoute } from './health.js';

/** The worker's (and the Socket Mode bot's) small HTTP server for /healthz, /readyz and /metrics. */
export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Serves `routes` on `port` (0: any free port), on every interface so the kubelet and Prometheus reach it. */
export async function startHealthServer(port: number, routes: readonly HealthRoute[]): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes.find((r) => r.path === path && r.method.includes(req.method ?? 'GET'));
    if (route) return route.handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  // Probes hold no long connections; a short keep-alive lets close() finish promptly.
  server.keepAliveTimeout = 2_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
