import { CoreV1Api } from '@kubernetes/client-node';
import { ClusterGateway } from '../../../src/cluster/gateway.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { findEntry } from '../../../src/catalogue/index.js';
import type { CatalogueEntry, Stage } from '../../../src/catalogue/model.js';
import { defaultPlatformNames } from '../../../src/platform-names.js';
import type { Plan } from '../../../src/remedies/plan.js';
import { planStage } from '../../../src/remedies/planner.js';
import { runPlan, type RunOutcome, type StepProgress } from '../../../src/remedies/runner.js';
import type { StepContext } from '../../../src/remedies/steps/index.js';
import { startFakeDashboardApi, type FakeDashboardApi, type FakeDashboardOptions } from '../../fakes/dashboard-api.js';

/** The simulated cluster (for the platform secret) and the fake dashboard, wired as a worker sees them. */
export interface DashboardWorld {
  readonly sim: SimulatedCluster;
  readonly fake: FakeDashboardApi;
  readonly ctx: StepContext;
  /** The dashboard password the simulated install seeded in devtron-secret. */
  readonly password: string;
  /** Sets (or, with undefined, removes) a key of the platform secret through the Kubernetes API. */
  setSecretKey(key: string, value: string | undefined): Promise<void>;
  plan(entryId: string, stageId: string, params?: Record<string, string>): Promise<Plan>;
  run(plan: Plan): Promise<{ outcome: RunOutcome; progress: StepProgress[] }>;
  close(): Promise<void>;
}

const secrets = { group: '', version: 'v1', plural: 'secrets' };

export async function startDashboardWorld(options: Partial<FakeDashboardOptions> = {}): Promise<DashboardWorld> {
  const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
  const seeded = sim.get(secrets, 'devtroncd', 'devtron-secret') as { data: Record<string, string> };
  const password = Buffer.from(seeded.data.GRAFANA_PASSWORD!, 'base64').toString('utf8');
  const fake = await startFakeDashboardApi({ password, ...options });
  const ctx: StepContext = {
    gateway: new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 2_000 }),
    names: { ...defaultPlatformNames, dashboardUrl: fake.url, dashboardCatalogueUrl: fake.catalogueUrl },
    pollMs: 20,
    now: () => new Date(),
  };
  const stageOf = (entry: CatalogueEntry, stageId: string): Stage => entry.stages.find((s) => s.id === stageId)!;
  return {
    sim,
    fake,
    ctx,
    password,
    setSecretKey: (key, value) => setPlatformSecretKey(sim, key, value),
    plan: (entryId, stageId, params) => {
      const entry = findEntry(entryId)!;
      return planStage(ctx, { requestId: 'rdash', cluster: 'sim', entry, stage: stageOf(entry, stageId), ...(params ? { params } : {}) });
    },
    async run(plan) {
      const progress: StepProgress[] = [];
      const outcome = await runPlan(ctx, plan, 0, async (p) => void progress.push(p));
      return { outcome, progress };
    },
    async close() {
      await fake.close();
      await sim.close();
    },
  };
}

/** Sets or removes a key of devtron-secret in the simulated cluster with a JSON patch, as kubectl would. */
export async function setPlatformSecretKey(sim: SimulatedCluster, key: string, value: string | undefined): Promise<void> {
  const path = `/data/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const body = value === undefined ? [{ op: 'remove', path }] : [{ op: 'add', path, value: Buffer.from(value).toString('base64') }];
  await sim.kubeConfig().makeApiClient(CoreV1Api).patchNamespacedSecret({ namespace: 'devtroncd', name: 'devtron-secret', body });
}

/**
 * Collects what the process writes to stdout and stderr (console and any logger) until `stop()`:
 * the steps take no logger, and this checks nothing they do ends up printed either.
 */
export function captureOutput(): { stop(): string } {
  const chunks: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const keep = (chunk: unknown) => void chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
  process.stdout.write = ((chunk: unknown, ...rest: never[]) => (keep(chunk), out(chunk as string, ...rest))) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: never[]) => (keep(chunk), err(chunk as string, ...rest))) as typeof process.stderr.write;
  return {
    stop() {
      process.stdout.write = out;
      process.stderr.write = err;
      return chunks.join('');
    },
  };
}

/** Everything a person or a log could see of a plan and a run, as one text. */
export function visibleText(...things: unknown[]): string {
  return JSON.stringify(things);
}
