import { CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { ClusterError } from '../errors.js';
import { type ApiCaller, toIso } from './call.js';

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
  /** Uid of that controller, to tell a job's own pods from a namesake's. */
  readonly ownerUid?: string;
  /** Why a container is waiting, e.g. CrashLoopBackOff or ImagePullBackOff. */
  readonly waiting?: string;
  readonly restarts: number;
  /**
   * Being deleted (it has a deletionTimestamp): it lingers until its containers have stopped, may still
   * show Ready, and its controller has (ReplicaSet) or will have (StatefulSet) its replacement. Never a target.
   */
  readonly terminating: boolean;
}

function summarise(pod: V1Pod): PodSummary {
  const ready = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const owner = pod.metadata?.ownerReferences?.find((o) => o.controller);
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
    terminating: pod.metadata?.deletionTimestamp !== undefined && pod.metadata?.deletionTimestamp !== null,
    createdAt: toIso(pod.metadata?.creationTimestamp),
    ...(owner ? { owner: owner.kind, ownerUid: owner.uid } : {}),
  };
}

/** Pods: list, read and delete (the guide's "delete pod by label"). */
export class PodsGateway {
  private readonly core: CoreV1Api;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
  }

  /** Pods of a namespace, optionally by label selector, oldest first. */
  async list(namespace: string, labelSelector?: string): Promise<PodSummary[]> {
    const what = `list pods in ${namespace}${labelSelector ? ` with ${labelSelector}` : ''}`;
    const list = await this.api.call(what, () => this.core.listNamespacedPod({ namespace, ...(labelSelector ? { labelSelector } : {}) }));
    return list.items.map(summarise).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name));
  }

  /** One pod, or undefined when it does not exist. */
  async get(namespace: string, name: string): Promise<PodSummary | undefined> {
    const pod = await this.api.find(`get pod ${namespace}/${name}`, () => this.core.readNamespacedPod({ namespace, name }));
    return pod && summarise(pod);
  }

  /**
   * Deletes exactly the pod of that uid (a precondition), so a pod recreated since the plan is never
   * deleted by mistake. Returns 'gone' when it no longer exists.
   */
  async delete(namespace: string, name: string, uid: string): Promise<'deleted' | 'gone'> {
    try {
      await this.api.call(`delete pod ${namespace}/${name}`, () => this.core.deleteNamespacedPod({ namespace, name, body: { preconditions: { uid } } }));
      return 'deleted';
    } catch (err) {
      if (err instanceof ClusterError && err.code === 'not-found') return 'gone';
      // A uid precondition that fails means the planned pod was already replaced by its controller.
      if (err instanceof ClusterError && err.code === 'conflict' && /precondition/i.test(err.message)) return 'gone';
      throw err;
    }
  }
}
