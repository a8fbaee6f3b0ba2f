import { VersionApi, type KubeConfig } from '@kubernetes/client-node';
import { cached, within, type ReadinessCheck } from './checks.js';

/**
 * The worker's readiness check of its cluster. A module of its own, outside observability/index.ts:
 * the bot shares the rest of observability and must not load the Kubernetes client for it.
 */

/** The cluster's API server answers a cheap read (GET /version), checked at most every 30 s. */
export function kubeCheck(kubeConfig: KubeConfig, timeoutMs = 3_000): ReadinessCheck {
  const api = kubeConfig.makeApiClient(VersionApi);
  return cached({ name: 'kubernetes', check: async () => void (await within(timeoutMs, 'kubernetes GET /version', api.getCode())) }, 30_000);
}
