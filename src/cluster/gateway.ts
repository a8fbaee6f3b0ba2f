import { CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { ClusterError, toClusterError } from './errors.js';

/** What the remedies need to know about a pod. */
export interface PodSummary {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly phase: string;
  readonly ready: boolean;
  readonly createdAt: string;
  /** Kind of the controller that recreates it (StatefulSet, ReplicaSet, Job), if any. */
  readonly owner?: string;
  /** Why a container is waiting, e.g. CrashLoopBackOff or ImagePullBackOff. */
  readonly waiting?: string;
  readonly restarts: number;
}

/** Options of the gateway. */
export interface GatewayOptions {
  /** Longest wait for one API call before it is reported as timed out. Default 15 s. */
  readonly callTimeoutMs?: number;
}

function summarise(pod: V1Pod): PodSummary {
  const ready = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const owner = pod.metadata?.ownerReferences?.find((o) => o.controller)?.kind;
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const waiting = statuses.map((c) => c.state?.waiting?.reason).find((r): r is string => Boolean(r));
  return {
    restarts: statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0),
    ...(waiting ? { waiting } : {}),
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid ?? '',
    phase: pod.status?.phase ?? 'Unknown',
    ready,
    createdAt: (pod.metadata?.creationTimestamp as Date | string | undefined)?.toString() ?? '',
    ...(owner ? { owner } : {}),
  };
}

function toIso(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  return typeof v === 'string' ? v : '';
}

/**
 * The typed gateway over the Kubernetes client: the only place that calls client-node, so every call
 * gets a timeout and every failure becomes a ClusterError with a message a person can act on.
 */
export class ClusterGateway {
  private readonly core: CoreV1Api;
  private readonly server: string;
  private readonly timeoutMs: number;

  constructor(kubeConfig: KubeConfig, options: GatewayOptions = {}) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.server = kubeConfig.getCurrentCluster()?.server ?? '(no server in kubeconfig)';
    this.timeoutMs = options.callTimeoutMs ?? 15_000;
  }

  private async call<T>(description: string, fn: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ClusterError('timeout', `${description} timed out after ${this.timeoutMs} ms (${this.server}).`, description)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([fn(), timeout]);
    } catch (err) {
      throw toClusterError(err, description, this.server);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Pods of a namespace, optionally by label selector, oldest first. */
  async listPods(namespace: string, labelSelector?: string): Promise<PodSummary[]> {
    const what = `list pods in ${namespace}${labelSelector ? ` with ${labelSelector}` : ''}`;
    const list = await this.call(what, () =>
      this.core.listNamespacedPod({ namespace, ...(labelSelector ? { labelSelector } : {}) }),
    );
    return list.items
      .map((p) => ({ ...summarise(p), createdAt: toIso(p.metadata?.creationTimestamp) }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name));
  }

  /** One pod, or undefined when it does not exist. */
  async getPod(namespace: string, name: string): Promise<PodSummary | undefined> {
    try {
      const pod = await this.call(`get pod ${namespace}/${name}`, () => this.core.readNamespacedPod({ namespace, name }));
      return { ...summarise(pod), createdAt: toIso(pod.metadata?.creationTimestamp) };
    } catch (err) {
      if (err instanceof ClusterError && err.code === 'not-found') return undefined;
      throw err;
    }
  }

  /**
   * A secret's keys and base64 values, or undefined when it does not exist. Callers must never log,
   * report or store a value; they decode only what they hand on sealed.
   */
  async readSecret(namespace: string, name: string): Promise<{ uid: string; resourceVersion: string; data: Record<string, string> } | undefined> {
    try {
      const secret = await this.call(`get secret ${namespace}/${name}`, () => this.core.readNamespacedSecret({ namespace, name }));
      return { uid: secret.metadata?.uid ?? '', resourceVersion: secret.metadata?.resourceVersion ?? '', data: { ...(secret.data ?? {}) } };
    } catch (err) {
      if (err instanceof ClusterError && err.code === 'not-found') return undefined;
      throw err;
    }
  }

  /**
   * Deletes exactly the pod of that uid (a precondition), so a pod recreated since the plan is never
   * deleted by mistake. Returns 'gone' when it no longer exists.
   */
  async deletePod(namespace: string, name: string, uid: string): Promise<'deleted' | 'gone'> {
    try {
      await this.call(`delete pod ${namespace}/${name}`, () =>
        this.core.deleteNamespacedPod({ namespace, name, body: { preconditions: { uid } } }),
      );
      return 'deleted';
    } catch (err) {
      if (err instanceof ClusterError && err.code === 'not-found') return 'gone';
      // A uid precondition that fails means the planned pod was already replaced by its controller.
      if (err instanceof ClusterError && err.code === 'conflict' && /precondition/i.test(err.message)) return 'gone';
      throw err;
    }
  }
}
