import { BatchV1Api, type KubeConfig, type V1Job } from '@kubernetes/client-node';
import { ClusterError } from '../errors.js';
import { type ApiCaller, toIso } from './call.js';
import type { Wire } from './json-list.js';

/** What the remedies need to know about a job: how far it got. */
export interface JobSummary {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly completions: number;
  readonly succeeded: number;
  readonly active: number;
  /** The job controller gave up (backoff limit or deadline): condition Failed=True. */
  readonly failed: boolean;
  readonly createdAt: string;
}

/** A Job as the worker reads it: counts from its spec and status, and whether the controller gave up. */
export function summariseJob(job: V1Job | Wire<V1Job>): JobSummary {
  return {
    namespace: job.metadata?.namespace ?? '',
    name: job.metadata?.name ?? '',
    uid: job.metadata?.uid ?? '',
    completions: job.spec?.completions ?? 1,
    succeeded: job.status?.succeeded ?? 0,
    active: job.status?.active ?? 0,
    failed: job.status?.conditions?.some((c) => c.type === 'Failed' && c.status === 'True') ?? false,
    createdAt: toIso(job.metadata?.creationTimestamp),
  };
}

/** Jobs: list them and delete them together with their pods. */
export class JobsGateway {
  private readonly batch: BatchV1Api;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.batch = kubeConfig.makeApiClient(BatchV1Api);
  }

  async list(namespace: string): Promise<JobSummary[]> {
    const list = await this.api.call(`list jobs in ${namespace}`, () => this.batch.listNamespacedJob({ namespace }));
    return list.items.map(summariseJob).sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(namespace: string, name: string): Promise<JobSummary | undefined> {
    const job = await this.api.find(`get job ${namespace}/${name}`, () => this.batch.readNamespacedJob({ namespace, name }));
    return job && summariseJob(job);
  }

  /**
   * Deletes exactly the job of that uid, and its pods: batch/v1 still orphans a job's pods unless the
   * deletion says Background, which would leave the failed pods behind. 'gone' when it no longer exists.
   */
  async delete(namespace: string, name: string, uid: string): Promise<'deleted' | 'gone'> {
    try {
      await this.api.call(`delete job ${namespace}/${name}`, () =>
        // The options travel in the body only: with a body, the API server reads no DeleteOptions from the query.
        this.batch.deleteNamespacedJob({ namespace, name, body: { preconditions: { uid }, propagationPolicy: 'Background' } }),
      );
      return 'deleted';
    } catch (err) {
      if (err instanceof ClusterError && err.code === 'not-found') return 'gone';
      if (err instanceof ClusterError && err.code === 'conflict' && /precondition/i.test(err.message)) return 'gone';
      throw err;
    }
  }
}
