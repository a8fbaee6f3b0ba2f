import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { catalogue, findEntry, findStage } from '../../../src/catalogue/index.js';
import { resolveParams } from '../../../src/catalogue/params.js';
import { ClusterGateway } from '../../../src/cluster/gateway.js';
import { startSimulatedCluster, type SimPolicy, type SimulatedCluster, type SimulatedClusterOptions } from '../../../src/cluster/sim/index.js';
import { defaultPlatformNames, type PlatformNames } from '../../../src/platform-names.js';
import type { Plan } from '../../../src/remedies/plan.js';
import { planStage } from '../../../src/remedies/planner.js';
import { workerRbac } from '../../../src/remedies/rbac.js';
import { workerSubject } from '../../../src/remedies/rbac-manifest.js';
import { runPlan, type RunOutcome, type StepProgress } from '../../../src/remedies/runner.js';
import type { StepContext } from '../../../src/remedies/steps/index.js';

/** References of the resources the tests read from the simulator. */
export const refs = {
  pods: { group: '', version: 'v1', plural: 'pods' },
  jobs: { group: 'batch', version: 'v1', plural: 'jobs' },
  secrets: { group: '', version: 'v1', plural: 'secrets' },
  services: { group: '', version: 'v1', plural: 'services' },
  claims: { group: '', version: 'v1', plural: 'persistentvolumeclaims' },
  storageClasses: { group: 'storage.k8s.io', version: 'v1', plural: 'storageclasses' },
  statefulSets: { group: 'apps', version: 'v1', plural: 'statefulsets' },
  deployments: { group: 'apps', version: 'v1', plural: 'deployments' },
  ingresses: { group: 'networking.k8s.io', version: 'v1', plural: 'ingresses' },
  crds: { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' },
  rollouts: { group: 'argoproj.io', version: 'v1alpha1', plural: 'rollouts' },
  backendConfigs: { group: 'cloud.google.com', version: 'v1', plural: 'backendconfigs' },
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** The worker's generated RBAC as the simulator's policy: what deploy/rbac.yaml grants, enforced. */
export function generatedPolicy(names: PlatformNames): SimPolicy {
  return { subject: workerSubject(names), ...workerRbac(catalogue, names) };
}

/** A test's cluster: the simulator enforcing the generated RBAC, and a step context on it. */
export interface Harness {
  sim: SimulatedCluster;
  ctx: StepContext;
  /** Plans a stage of an entry (default: its first), with the entry's parameters resolved as the bot does. */
  plan(entryId: string, params?: Record<string, string>, stageId?: string): Promise<Plan>;
  /** Runs a plan to its end (through waits), collecting the progress the thread would show. */
  run(plan: Plan, ctx?: StepContext): Promise<{ outcome: RunOutcome; progress: StepProgress[] }>;
}

/**
 * `platformAddresses`: the context reaches the simulated platform's dashboard, dashboard catalogue and
 * database at their own addresses (as the demo's cluster configuration does), not at the in-cluster defaults.
 */
export async function harness(opts: SimulatedClusterOptions & { manifestBaseUrl?: string; manifestBundle?: string; enforceRbac?: boolean; platformAddresses?: boolean } = {}): Promise<Harness> {
  const { manifestBaseUrl, manifestBundle, enforceRbac = true, platformAddresses = false, ...simOpts } = opts;
  const names: PlatformNames = { ...defaultPlatformNames, ...(simOpts.names ?? {}), ...(manifestBaseUrl ? { manifestBaseUrl } : {}) };
  const probe = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, ...simOpts, ...(enforceRbac ? { policy: generatedPolicy(names) } : {}) });
  cleanups.push(async () => {
    const split = probe.requests().filter((r) => r.ignoredQuery);
    await probe.close();
    // With a body, a real API server reads a DELETE's options from the body alone (handlers/delete.go).
    if (split.length > 0) throw new Error(`DeleteOptions in a query beside a body, which a real API server ignores: ${split.map((r) => `${r.path}?${r.query}`).join(', ')}`);
  });
  const ctx: StepContext = {
    gateway: new ClusterGateway(probe.kubeConfig(), { callTimeoutMs: 3_000 }),
    names: platformAddresses ? { ...names, ...probe.addresses } : names,
    pollMs: 10,
    now: () => new Date(),
    waitOverrideSeconds: 0,
    ...(manifestBundle ? { manifestBundle } : {}),
  };
  return {
    sim: probe,
    ctx,
    async plan(entryId, params = {}, stageId) {
      const entry = findEntry(entryId);
      if (!entry) throw new Error(`no entry ${entryId}`);
      const stage = stageId ? findStage(entry, stageId) : entry.stages[0];
      if (!stage) throw new Error(`no stage ${stageId} in ${entryId}`);
      const resolved = resolveParams(entry, params);
      if (!resolved.ok) throw new Error(resolved.message);
      return planStage(ctx, { requestId: 'rtest', cluster: 'sim', entry, stage, params: resolved.params });
    },
    async run(plan, runCtx = ctx) {
      const progress: StepProgress[] = [];
      const report = async (p: StepProgress) => void progress.push(p);
      let outcome = await runPlan(runCtx, plan, 0, report);
      while (outcome.status === 'waiting') outcome = await runPlan(runCtx, plan, outcome.resumeFrom, report);
      return { outcome, progress };
    },
  };
}

/** Every line of a plan, as one text. */
export const linesOf = (plan: Plan): string => plan.steps.flatMap((s) => s.lines).join('\n');

/** Serves test/remedies/steps/manifests/ over HTTP, as {manifest_url} does; `override` replaces a file's text. */
export async function manifestServer(): Promise<{ url: string; override: (path: string, text: string | undefined) => void; hits: () => number }> {
  const root = fileURLToPath(new URL('./manifests/', import.meta.url));
  const overrides = new Map<string, string>();
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    const send = (status: number, body: string) => res.writeHead(status, { 'Content-Type': 'text/plain' }).end(body);
    const override = overrides.get(path);
    if (override !== undefined) return send(200, override);
    if (path.includes('..')) return send(400, 'bad path');
    readFile(root + path, 'utf8').then(
      (text) => send(200, text),
      () => send(404, '404: Not Found'),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, override: (p, t) => (t === undefined ? overrides.delete(p) : overrides.set(p, t)), hits: () => hits };
}
