import type { PodRuntime } from './pod-runtime.js';
import { controllerOf, podFromTemplate, podPhase, randomSuffix, runningStatus, safeHash, succeededStatus } from './pods.js';
import type { ResourceKind } from './resources.js';
import { apiVersionOf, kinds } from './resources.js';
import type { Scheduler } from './scheduler.js';
import type { StoreEvent, ObjectStore } from './store.js';
import { isTerminating } from './termination.js';
import type { PodTermination } from './termination.js';
import type { JsonObject, KubeObject, OwnerReference } from './types.js';
import { clone } from './types.js';
import { deploymentStatus, jobFailed, jobStatus, replicaSetStatus, statefulSetRevision, statefulSetStatus, templateHash, workloadSpec as spec, workloadStatus as statusOf } from './workload-status.js';

/** How quickly the simulated controllers act. */
export interface ControllerTimings {
  /** Between a controlled pod's deletion and its replacement. */
  recreateDelayMs: number;
  /** Between a pod's creation and it being Running and Ready (and, for job pods, between Running and Succeeded). */
  readyDelayMs: number;
}

export function ownerReference(kind: ResourceKind, owner: KubeObject): OwnerReference {
  return { apiVersion: apiVersionOf(kind), kind: kind.kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

function ownedBy(obj: KubeObject, owner: KubeObject): boolean {
  return controllerOf(obj)?.uid === owner.metadata.uid;
}

/**
 * The workload controllers, kube-controller-manager and kubelet in one: they keep workloads' pods in number,
 * bring new pods to Running/Ready, finish job pods, and keep workload status in step. They react to store
 * events but act only through the scheduler, so every change happens after a store write has returned
 * (as in a real cluster, where controllers are asynchronous).
 */
export class Controllers {
  private readonly statusRefreshes = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: ObjectStore,
    private readonly scheduler: Scheduler,
    private readonly timings: ControllerTimings,
    /** What happens inside pods: whether their containers come up (the platform's faults live there). */
    private readonly runtime: PodRuntime,
    /** How the pods the controllers scale away are deleted (gracefully, as any DELETE). */
    private readonly termination: PodTermination,
  ) {
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe();
  }

  /** Runs one workload's reconciliation now; seeding uses it to build the standard install synchronously. */
  reconcileNow(kind: ResourceKind, obj: KubeObject): void {
    if (kind === kinds.deployment) this.reconcileDeployment(obj);
    else if (kind === kinds.replicaSet) this.reconcileReplicaSet(obj);
    else if (kind === kinds.statefulSet) this.reconcileStatefulSet(obj);
    else if (kind === kinds.job) this.reconcileJob(obj);
  }

  /** Recomputes a workload's status now. */
  refreshStatusNow(kind: ResourceKind, namespace: string, name: string): void {
    const obj = this.store.get(kind, namespace, name);
    if (!obj) return;
    if (kind === kinds.replicaSet) this.refreshReplicaSet(obj);
    else if (kind === kinds.deployment) this.refreshDeployment(obj);
    else if (kind === kinds.statefulSet) this.refreshStatefulSet(obj);
    else if (kind === kinds.job) this.refreshJob(obj);
  }

  private onEvent(event: StoreEvent): void {
    const { kind, object, type } = event;
    if (kind === kinds.pod) return this.onPodEvent(event);
    const workload = kind === kinds.deployment || kind === kinds.replicaSet || kind === kinds.statefulSet || kind === kinds.job;
    if (!workload || type === 'DELETED') return;
    const specChanged = type === 'ADDED' || event.previous?.metadata.generation !== object.metadata.generation;
    if (specChanged) this.scheduler.after(0, () => this.reconcileLatest(kind, object));
    if (kind === kinds.replicaSet) {
      const owner = controllerOf(object);
      if (owner?.kind === 'Deployment') this.scheduleStatus(kinds.deployment, object.metadata.namespace ?? '', owner.name);
    }
  }

  private onPodEvent({ type, object: pod, previous }: StoreEvent): void {
    const namespace = pod.metadata.namespace ?? '';
    const owner = controllerOf(pod);
    const ownerKind = owner ? ownerKindOf(owner) : undefined;
    if (owner && ownerKind) {
      this.scheduleStatus(ownerKind, namespace, owner.name);
      // A ReplicaSet replaces a Terminating pod at once (FilterActivePods, controller_utils.go); a StatefulSet finds
      // the name still taken and waits for the DELETED (stateful_set_control.go: "waiting for Pod to Terminate").
      const startedTerminating = type === 'MODIFIED' && isTerminating(pod) && previous !== undefined && !isTerminating(previous);
      if (type === 'DELETED' || startedTerminating) {
        // The controller notices the missing pod and replaces it after a while, from the owner's current spec.
        this.scheduler.after(this.timings.recreateDelayMs, () => {
          const current = this.store.get(ownerKind, namespace, owner.name);
          if (current && current.metadata.uid === owner.uid) this.reconcileNow(ownerKind, current);
        });
      }
    }
    if (type === 'ADDED' && podPhase(pod) === 'Pending') {
      this.scheduler.after(this.timings.readyDelayMs, () => this.startPod(namespace, pod.metadata.name ?? '', pod.metadata.uid ?? ''));
    }
  }

  /** The kubelet's part: the pod's containers start; a job's pod then runs to completion. */
  private startPod(namespace: string, name: string, uid: string): void {
    const pod = this.store.get(kinds.pod, namespace, name);
    if (!pod || pod.metadata.uid !== uid || podPhase(pod) !== 'Pending') return;
    pod['status'] = runningStatus(pod, new Date(), this.runtime.troubles(pod));
    this.store.update(kinds.pod, pod);
    if (controllerOf(pod)?.kind === 'Job') {
      this.scheduler.after(this.timings.readyDelayMs, () => {
        const running = this.store.get(kinds.pod, namespace, name);
        if (!running || running.metadata.uid !== uid || podPhase(running) !== 'Running') return;
        running['status'] = succeededStatus(running);
        this.store.update(kinds.pod, running);
      });
    }
  }

  private reconcileLatest(kind: ResourceKind, seen: KubeObject): void {
    const current = this.store.get(kind, seen.metadata.namespace, seen.metadata.name ?? '');
    if (current && current.metadata.uid === seen.metadata.uid) this.reconcileNow(kind, current);
  }

  private scheduleStatus(kind: ResourceKind, namespace: string, name: string): void {
    const key = `${kind.plural}/${namespace}/${name}`;
    if (this.statusRefreshes.has(key)) return;
    this.statusRefreshes.add(key);
    this.scheduler.after(0, () => {
      this.statusRefreshes.delete(key);
      this.refreshStatusNow(kind, namespace, name);
    });
  }

  private podsOf(owner: KubeObject): KubeObject[] {
    return this.store.list(kinds.pod, owner.metadata.namespace, (p) => ownedBy(p, owner));
  }

  /** A ReplicaSet's pods that count: neither Terminating nor finished. */
  private activePodsOf(rs: KubeObject): KubeObject[] {
    return this.podsOf(rs).filter((p) => !isTerminating(p) && podPhase(p) !== 'Succeeded' && podPhase(p) !== 'Failed');
  }

  /** Creates a controller's pod; the runtime may change it first (a replacement may inherit a fault from the cluster's state). */
  private createPod(pod: KubeObject): void {
    this.runtime.preparePod(pod, this.store.peek(kinds.pod, pod.metadata.namespace));
    this.store.create(kinds.pod, pod);
  }

  private reconcileDeployment(dep: KubeObject): void {
    const namespace = dep.metadata.namespace ?? '';
    const { template, replicas = 1, selector } = spec(dep);
    const hash = templateHash(template);
    const owned = this.store.list(kinds.replicaSet, namespace, (rs) => ownedBy(rs, dep));
    let revision = owned.reduce((max, rs) => Math.max(max, Number(rs.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0)), 0);
    const current = owned.find((rs) => rs.metadata.labels?.['pod-template-hash'] === hash);
    if (!current) {
      revision += 1;
      const labels = { ...(template.metadata?.labels ?? {}), 'pod-template-hash': hash };
      this.store.create(kinds.replicaSet, {
        metadata: {
          name: `${dep.metadata.name}-${hash}`,
          namespace,
          labels,
          annotations: { 'deployment.kubernetes.io/desired-replicas': String(replicas), 'deployment.kubernetes.io/revision': String(revision) },
          ownerReferences: [ownerReference(kinds.deployment, dep)],
        },
        spec: {
          replicas,
          selector: { ...(selector ?? {}), matchLabels: { ...(selector?.matchLabels ?? {}), 'pod-template-hash': hash } },
          template: { ...template, metadata: { ...(template.metadata ?? {}), labels } },
        },
      });
    } else if (spec(current).replicas !== replicas) {
      const next = clone(current);
      spec(next).replicas = replicas;
      this.store.update(kinds.replicaSet, next);
    }
    // A simplified rollout: the old ReplicaSets go to zero at once rather than step by step.
    for (const old of owned) {
      if (old.metadata.uid === current?.metadata.uid || spec(old).replicas === 0) continue;
      const next = clone(old);
      spec(next).replicas = 0;
      this.store.update(kinds.replicaSet, next);
    }
    this.scheduleStatus(kinds.deployment, namespace, dep.metadata.name ?? '');
  }

  private reconcileReplicaSet(rs: KubeObject): void {
    const { template, replicas = 1 } = spec(rs);
    const pods = this.activePodsOf(rs);
    for (let i = pods.length; i < replicas; i++) {
      this.createPod(
        podFromTemplate(template, {
          name: `${rs.metadata.name}-${randomSuffix()}`,
          namespace: rs.metadata.namespace ?? '',
          owner: ownerReference(kinds.replicaSet, rs),
        }),
      );
    }
    const newestFirst = pods.sort((a, b) => (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''));
    for (const extra of newestFirst.slice(0, Math.max(0, pods.length - replicas))) {
      this.termination.delete(extra.metadata.namespace ?? '', extra.metadata.name ?? '', undefined);
    }
  }

  private reconcileStatefulSet(sts: KubeObject): void {
    const namespace = sts.metadata.namespace ?? '';
    const stsName = sts.metadata.name ?? '';
    const { template, replicas = 1, volumeClaimTemplates = [] } = spec(sts);
    const revision = statefulSetRevision(sts);
    for (let ordinal = 0; ordinal < replicas; ordinal++) {
      const podName = `${stsName}-${ordinal}`;
      if (this.store.get(kinds.pod, namespace, podName)) continue;
      const volumes = volumeClaimTemplates.map((claim) => {
        const claimName = `${claim.metadata.name}-${podName}`;
        this.ensureClaim(claim, claimName, namespace, stsName, template.metadata?.labels ?? {});
        return { name: claim.metadata.name, persistentVolumeClaim: { claimName } };
      });
      const pod = podFromTemplate(template, {
        name: podName,
        namespace,
        labels: { 'controller-revision-hash': revision, 'statefulset.kubernetes.io/pod-name': podName, 'apps.kubernetes.io/pod-index': String(ordinal) },
        owner: ownerReference(kinds.statefulSet, sts),
      });
      const podSpec = pod['spec'] as JsonObject;
      const existing = (podSpec['volumes'] as unknown[] | undefined) ?? [];
      if (volumes.length > 0) podSpec['volumes'] = [...volumes, ...existing];
      podSpec['hostname'] = podName;
      this.createPod(pod);
    }
    for (const pod of this.podsOf(sts)) {
      const ordinal = Number(pod.metadata.labels?.['apps.kubernetes.io/pod-index'] ?? -1);
      if (ordinal >= replicas && !isTerminating(pod)) this.termination.delete(namespace, pod.metadata.name ?? '', undefined);
    }
  }

  /** Claims from volumeClaimTemplates outlive their pods, as in Kubernetes; only a missing one is created. */
  private ensureClaim(claim: KubeObject, name: string, namespace: string, stsName: string, labels: Record<string, string>): void {
    if (this.store.get(kinds.pvc, namespace, name)) return;
    const claimSpec = clone((claim['spec'] as JsonObject | undefined) ?? {});
    const storage = (claimSpec['resources'] as { requests?: { storage?: string } } | undefined)?.requests?.storage ?? '1Gi';
    claimSpec['volumeName'] = `pvc-${safeHash(`${namespace}/${name}`, 8)}-${stsName}`;
    claimSpec['volumeMode'] ??= 'Filesystem';
    this.store.create(kinds.pvc, {
      metadata: { name, namespace, labels: { ...labels, ...(claim.metadata.labels ?? {}) }, annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } },
      spec: claimSpec,
      status: { phase: 'Bound', accessModes: claimSpec['accessModes'] ?? ['ReadWriteOnce'], capacity: { storage } },
    });
  }

  private reconcileJob(job: KubeObject): void {
    const completions = spec(job).completions ?? 1;
    const pods = this.podsOf(job);
    const succeeded = pods.filter((p) => podPhase(p) === 'Succeeded').length;
    const active = pods.filter((p) => podPhase(p) !== 'Succeeded' && podPhase(p) !== 'Failed').length;
    if (succeeded >= completions || active > 0 || statusOf(job)['completionTime'] || jobFailed(job)) return;
    const jobName = job.metadata.name ?? '';
    const uid = job.metadata.uid ?? '';
    this.createPod(
      podFromTemplate(spec(job).template, {
        name: `${jobName}-${randomSuffix()}`,
        namespace: job.metadata.namespace ?? '',
        labels: { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': jobName, 'controller-uid': uid, 'job-name': jobName },
        owner: ownerReference(kinds.job, job),
      }),
    );
    this.scheduleStatus(kinds.job, job.metadata.namespace ?? '', jobName);
  }

  private writeStatus(kind: ResourceKind, obj: KubeObject, status: JsonObject): void {
    const next = clone(obj);
    next['status'] = status;
    this.store.update(kind, next);
  }

  private refreshReplicaSet(rs: KubeObject): void {
    this.writeStatus(kinds.replicaSet, rs, replicaSetStatus(rs, this.activePodsOf(rs)));
  }

  private refreshDeployment(dep: KubeObject): void {
    const owned = this.store.list(kinds.replicaSet, dep.metadata.namespace, (rs) => ownedBy(rs, dep));
    this.writeStatus(kinds.deployment, dep, deploymentStatus(dep, owned.flatMap((rs) => this.activePodsOf(rs))));
  }

  private refreshStatefulSet(sts: KubeObject): void {
    this.writeStatus(kinds.statefulSet, sts, statefulSetStatus(sts, this.podsOf(sts)));
  }

  private refreshJob(job: KubeObject): void {
    this.writeStatus(kinds.job, job, jobStatus(job, this.podsOf(job)));
  }
}

function ownerKindOf(owner: OwnerReference): ResourceKind | undefined {
  return [kinds.replicaSet, kinds.statefulSet, kinds.job, kinds.deployment].find((k) => k.kind === owner.kind && apiVersionOf(k) === owner.apiVersion);
}
