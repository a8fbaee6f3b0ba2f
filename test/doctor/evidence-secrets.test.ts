import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import type { SimulatedCluster } from '../../src/cluster/sim/index.js';
import { scan } from '../../src/doctor/index.js';
import { knownSecrets } from '../../src/known-secrets.js';
import { hiddenSim, stateOf } from './support.js';

/**
 * A cluster whose components log secrets: an HTTP relay in front of the simulated cluster that hands
 * the log reads through with `from` replaced by `to` (a repository URL with its credentials, as a
 * material configured `https://user:token@host/repo.git` is logged by git-sensor). Everything else passes unchanged.
 */
async function loggingSecrets(sim: SimulatedCluster, from: string, to: string): Promise<{ kubeConfig: KubeConfig; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const upstream = await fetch(`${sim.url}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)).map(([k, v]) => [k, String(v)])),
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      let body = await upstream.text();
      if ((req.url ?? '').includes('/log')) body = body.split(from).join(to);
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    })().catch((err: unknown) => res.writeHead(502).end(String(err)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const kubeConfig = new KubeConfig();
  const name = 'relayed';
  kubeConfig.loadFromOptions({
    clusters: [{ name, server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
    users: [{ name, token: sim.token }],
    contexts: [{ name, cluster: name, user: name }],
    currentContext: name,
  });
  return { kubeConfig, close: () => new Promise((r) => server.close(() => r())) };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** Every piece of the secret a reader could use: any 5 characters of it in a row. */
const piecesOf = (secret: string) => Array.from({ length: secret.length - 4 }, (_, i) => secret.slice(i, i + 5));

describe('evidence of a component that logs a secret', () => {
  it('shows no part of it, even where the evidence cuts the log line short', async () => {
    const sim = await hiddenSim();
    closers.push(() => sim.close());
    await sim.break('commits-exit-128');
    await sim.settle();
    // git-sensor logs the failing material's URL; here it was configured with its credentials.
    const password = 'Zq7wUpLk9vRt2mXs';
    const relay = await loggingSecrets(sim, 'https://github.com/acme-corp/payments-api.git', `https://deploybot:${password}@github.com/acme-corp/payments-api.git`);
    closers.push(() => relay.close());
    const entries = catalogue.filter((e) => e.id === 'commits-exit-128');
    const report = await scan(new ClusterGateway(relay.kubeConfig, { callTimeoutMs: 5_000 }), sim.names, entries);
    const finding = stateOf(report, 'commits-exit-128')!;
    expect(finding.state).toBe('present');
    const shown = JSON.stringify(finding);
    expect(shown).toContain('latest: {\\"level\\":\\"error\\"');
    for (const piece of piecesOf(password)) expect(shown, piece).not.toContain(piece);
  });

  it('shows no part of a secret value the worker holds, even where the evidence cuts the line short', async () => {
    const sim = await hiddenSim();
    closers.push(() => sim.close());
    await sim.break('commits-exit-128');
    await sim.settle();
    // A value the worker read (say from a Secret) that a component logs where no pattern sees a secret.
    const token = 'qpXn3RwzT8vLk2HdYs5m';
    knownSecrets.add(token);
    const relay = await loggingSecrets(sim, 'https://github.com/acme-corp/payments-api.git', `https://github.com/${token}/payments-api.git`);
    closers.push(() => relay.close());
    const entries = catalogue.filter((e) => e.id === 'commits-exit-128');
    const report = await scan(new ClusterGateway(relay.kubeConfig, { callTimeoutMs: 5_000 }), sim.names, entries);
    const shown = JSON.stringify(stateOf(report, 'commits-exit-128'));
    expect(shown).toContain('latest: {\\"level\\":\\"error\\"');
    for (const piece of piecesOf(token)) expect(shown, piece).not.toContain(piece);
  });
});
