import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { afterEach, beforeEach, expect } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../../src/cluster/sim/index.js';

/** References of the resources the tests read directly from the simulator. */
export const pods = { group: '', version: 'v1', plural: 'pods' };
export const statefulSets = { group: 'apps', version: 'v1', plural: 'statefulsets' };
export const deployments = { group: 'apps', version: 'v1', plural: 'deployments' };
export const jobs = { group: 'batch', version: 'v1', plural: 'jobs' };
export const secrets = { group: '', version: 'v1', plural: 'secrets' };

export const fast = { recreateDelayMs: 50, readyDelayMs: 50 } as const;

/** Runs `call`, expecting it to fail with an ApiException of `code`; returns the parsed Status body. */
export async function apiFailure(call: () => Promise<unknown>, code: number): Promise<Record<string, unknown>> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the call should have failed').toBeInstanceOf(ApiException);
  const apiError = error as ApiException<unknown>;
  expect(apiError.code).toBe(code);
  // client-node 1.4 hands the body over as the raw text of the response.
  return typeof apiError.body === 'string' ? (JSON.parse(apiError.body) as Record<string, unknown>) : (apiError.body as Record<string, unknown>);
}

export function isReady(pod: { status?: { conditions?: Array<{ type: string; status: string }> } } | undefined): boolean {
  return pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

/**
 * A fresh simulator (fast controllers) and its core API client for every test of a describe block,
 * closed after each: `const env = freshSimulator();` then `env.sim`, `env.core` inside the tests.
 */
export function freshSimulator(): { readonly sim: SimulatedCluster; readonly core: CoreV1Api } {
  let sim: SimulatedCluster | undefined;
  let core: CoreV1Api | undefined;
  beforeEach(async () => {
    sim = await startSimulatedCluster(fast);
    core = sim.kubeConfig().makeApiClient(CoreV1Api);
  });
  afterEach(async () => {
    await sim?.close();
  });
  return {
    get sim() {
      return sim!;
    },
    get core() {
      return core!;
    },
  };
}
