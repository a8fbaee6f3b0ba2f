import { X509Certificate } from 'node:crypto';
import { CoreV1Api, CustomObjectsApi, type CoreV1Event, type KubeConfig, type V1ContainerStatus, type V1Job, type V1Pod } from '@kubernetes/client-node';
import { type ApiCaller, toIso } from './call.js';
import type { CustomKind, CustomObject } from './custom.js';
import { summariseJob, type JobSummary } from './jobs.js';
import { JsonLists, listPath, type Wire } from './json-list.js';

/**
 * What the doctor reads: the states a real cluster shows (container states and reasons, job
 * conditions, warning events, log tails, certificate dates), each list for a namespace or for the
 * whole cluster in one call. Annotations are kept only where a detector names one (see `annotations`).
 * The lists that grow with the cluster are read as JSON (JsonLists) and summarised straight from it.
 */

export interface ContainerState {
  readonly name: string;
  readonly image: string;
  readonly ready: boolean;
  readonly restarts: number;
  readonly waiting?: { readonly reason: string; readonly message?: string };
  readonly terminated?: { readonly reason: string; readonly exitCode: number };
}

export interface PodState {
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly phase: string;
  readonly createdAt: string;
  readonly owner?: { readonly kind: string; readonly name: string; readonly uid: string };
  /** Init containers first, then the containers, as `kubectl describe` shows them. */
  readonly containers: readonly ContainerState[];
  /** The names of the pod's (non-init) containers, for reading their logs. */
  readonly logContainers: readonly string[];
}

/** A Job as the doctor reads it: the remedies' summary, with the Failed condition's reason and time kept as evidence. */
export interface JobState extends Omit<JobSummary, 'failed'> {
  /** The Failed condition's reason and time when the job controller gave up. */
  readonly failed?: { readonly reason: string; readonly since: string };
}

export interface EventRecord {
  readonly namespace: string;
  readonly object: { readonly kind: string; readonly name: string };
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly count: number;
  readonly lastSeen: string;
}

/** A certificate's dates, read from one key of a secret; the secret's values are not kept. */
export interface CertificateDates {
  readonly notBefore: string;
  readonly notAfter: string;
  readonly subject: string;
}

function container(c: Wire<V1ContainerStatus> | undefined, name: string, image: string): ContainerState {
  const waiting = c?.state?.waiting?.reason;
  const terminated = c?.state?.terminated;
  return {
    name,
    image: c?.image || image,
    ready: c?.ready ?? false,
    restarts: c?.restartCount ?? 0,
    ...(waiting ? { waiting: { reason: waiting, ...(c?.state?.waiting?.message ? { message: c.state.waiting.message } : {}) } } : {}),
    ...(terminated ? { terminated: { reason: terminated.reason ?? '', exitCode: terminated.exitCode } } : {}),
  };
}

function podState(pod: Wire<V1Pod>): PodState {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const specs = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const owner = pod.metadata?.ownerReferences?.find((o) => o.controller);
  return {
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    labels: { ...(pod.metadata?.labels ?? {}) },
    phase: pod.status?.phase ?? 'Unknown',
    createdAt: toIso(pod.metadata?.creationTimestamp),
    ...(owner ? { owner: { kind: owner.kind, name: owner.name, uid: owner.uid } } : {}),
    containers: specs.map((s) => container(statuses.find((c) => c.name === s.name), s.name, s.image ?? '')),
    logContainers: (pod.spec?.containers ?? []).map((c) => c.name),
  };
}

function jobState(job: Wire<V1Job>): JobState {
  // The same reading as the remedies' (summariseJob), with the Failed condition's reason and time kept as evidence.
  const { failed: gaveUp, ...summary } = summariseJob(job);
  const failed = gaveUp ? job.status?.conditions?.find((c) => c.type === 'Failed' && c.status === 'True') : undefined;
  return { ...summary, ...(failed ? { failed: { reason: failed.reason ?? 'Failed', since: toIso(failed.lastTransitionTime) } } : {}) };
}

function eventRecord(e: Wire<CoreV1Event>): EventRecord {
  return {
    namespace: e.metadata?.namespace ?? '',
    object: { kind: e.involvedObject?.kind ?? '', name: e.involvedObject?.name ?? '' },
    type: e.type ?? '',
    reason: e.reason ?? '',
    message: e.message ?? '',
    count: e.count ?? 1,
    lastSeen: toIso(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp),
  };
}

const where = (namespace: string | undefined) => (namespace === undefined ? 'in all namespaces' : `in ${namespace}`);

/** The doctor's reads; one call each. */
export class ObserveGateway {
  private readonly core: CoreV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly lists: JsonLists;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.lists = new JsonLists(kubeConfig);
  }

  /** Pods of a namespace, or of every namespace when none is given. */
  async pods(namespace?: string): Promise<PodState[]> {
    const items = await this.api.call(`list pods ${where(namespace)}`, () => this.lists.items<V1Pod>(listPath('', 'v1', 'pods', namespace)));
    return items.map(podState);
  }

  async jobs(namespace?: string): Promise<JobState[]> {
    const items = await this.api.call(`list jobs ${where(namespace)}`, () => this.lists.items<V1Job>(listPath('batch', 'v1', 'jobs', namespace)));
    return items.map(jobState);
  }

  /** Warning events only: what goes wrong, not the normal traffic of a busy cluster. */
  async warnings(namespace?: string): Promise<EventRecord[]> {
    const items = await this.api.call(`list events ${where(namespace)}`, () => this.lists.items<CoreV1Event>(listPath('', 'v1', 'events', namespace), { fieldSelector: 'type=Warning' }));
    return items.map(eventRecord);
  }

  /** The last `tailLines` lines of one container's log. */
  async logTail(namespace: string, pod: string, containerName: string, tailLines: number): Promise<string[]> {
    const text = await this.api.call(`read log of ${namespace}/${pod} (${containerName})`, () => this.core.readNamespacedPodLog({ namespace, name: pod, container: containerName, tailLines, limitBytes: 64 * 1024 }));
    return String(text).split('\n').filter((l) => l !== '');
  }

  /** Custom objects of one kind; undefined when the kind is not installed (its CRD is absent). */
  async customObjects(kind: CustomKind, namespace?: string): Promise<CustomObject[] | undefined> {
    const base = { group: kind.group, version: kind.version, plural: kind.plural };
    const list = await this.api.find(`list ${kind.plural}.${kind.group} ${where(namespace)}`, async () =>
      (namespace === undefined ? await this.custom.listClusterCustomObject(base) : await this.custom.listNamespacedCustomObject({ ...base, namespace })) as { items?: CustomObject[] },
    );
    return list?.items ?? (list ? [] : undefined);
  }

  /**
   * The dates of the certificate held under `key` of a secret read by name; undefined when the secret
   * or the key is absent, `unreadable` when the key holds no certificate. Only the dates leave here.
   */
  async certificate(namespace: string, name: string, key: string): Promise<CertificateDates | 'unreadable' | undefined> {
    const secret = await this.api.find(`get secret ${namespace}/${name}`, () => this.core.readNamespacedSecret({ namespace, name }));
    const pem = secret?.data?.[key];
    if (pem === undefined) return undefined;
    try {
      const cert = new X509Certificate(Buffer.from(pem, 'base64'));
      return { notBefore: new Date(cert.validFrom).toISOString(), notAfter: new Date(cert.validTo).toISOString(), subject: cert.subject.replace(/\n/g, ', ') };
    } catch {
      return 'unreadable';
    }
  }
}
