import { Queue } from 'bullmq';
import { clusterQueueName } from '../jobs/names.js';
import { connectProbeRedis, redisCheck, type ReadinessCheck } from './checks.js';
import { Health } from './health.js';
import { createMetrics, type MedicMetrics } from './metrics.js';

export { cached, slackCheck, type ReadinessCheck } from './checks.js';
export { Health, healthPaths, type HealthRoute } from './health.js';
export { createMetrics, metricNames, type MedicMetrics } from './metrics.js';
export { countRequests } from './bolt.js';
export { startHealthServer, type HealthServer } from './server.js';

/** What observing a bot or a worker needs. */
export interface ObserveOptions {
  readonly redisUrl: string;
  readonly queuePrefix: string;
  /** Clusters whose queue depth /metrics reports: every cluster for the bot, its own for a worker. */
  readonly clusters: readonly string[];
  /** Checks besides Redis: Slack for the bot, the Kubernetes API for a worker. */
  readonly checks: readonly ReadinessCheck[];
  /** Injected by tests for a fresh registry they can read; a new one by default. */
  readonly metrics?: MedicMetrics;
}

/** The health and metrics of one process, with the Redis connection they read through. */
export interface Observability {
  readonly metrics: MedicMetrics;
  readonly health: Health;
  close(): Promise<void>;
}

/** Wires metrics, readiness (Redis first) and queue depth for a bot or a worker. */
export function observe(options: ObserveOptions): Observability {
  const metrics = options.metrics ?? createMetrics();
  const probe = connectProbeRedis(options.redisUrl);
  const queues = options.clusters.map((cluster) => ({ cluster, queue: new Queue(clusterQueueName(cluster), { connection: probe, prefix: options.queuePrefix }) }));
  for (const { queue } of queues) queue.on('error', () => undefined);
  metrics.watchQueues(queues);
  const health = new Health([redisCheck(probe), ...options.checks], metrics);
  return {
    metrics,
    health,
    async close() {
      metrics.watchQueues([]);
      await Promise.allSettled(queues.map(({ queue }) => queue.close()));
      probe.disconnect();
    },
  };
}
