import { isPodReady, podPhase, safeHash } from './pods.js';
import type { PodTemplate } from './pods.js';
import type { WorkloadSelector } from './selectors.js';
import type { JsonObject, KubeObject } from './types.js';
import { kubeTime } from './types.js';

/**
 * The status each workload controller writes, computed from the workload and the pods it owns.
 * Pure functions, so what `kubectl get deploy` shows is easy to follow and to change.
 */

/** The spec fields of Deployments, ReplicaSets, StatefulSets and Jobs that the controllers read. */
export interface WorkloadSpec {
  replicas?: number;
  selector?: WorkloadSelector;
  template: PodTemplate;
  volumeClaimTemplates?: KubeObject[];
  completions?: number;
}

export const workloadSpec = (obj: KubeObject): WorkloadSpec => obj['spec'] as WorkloadSpec;
export const workloadStatus = (obj: KubeObject): JsonObject => (obj['status'] as JsonObject | undefined) ?? {};

/** The pod-template-hash of a template, which names a Deployment's ReplicaSet. */
export const templateHash = (template: PodTemplate): string => safeHash(JSON.stringify(template));

export function replicaSetStatus(rs: KubeObject, pods: KubeObject[]): JsonObject {
  const ready = pods.filter(isPodReady).length;
  return { replicas: pods.length, fullyLabeledReplicas: pods.length, readyReplicas: ready, availableReplicas: ready, observedGeneration: rs.metadata.generation };
}

export function deploymentStatus(dep: KubeObject, pods: KubeObject[]): JsonObject {
  const hash = templateHash(workloadSpec(dep).template);
  const ready = pods.filter(isPodReady).length;
  const updated = pods.filter((p) => p.metadata.labels?.['pod-template-hash'] === hash).length;
  const desired = workloadSpec(dep).replicas ?? 1;
  const at = kubeTime();
  const available = ready >= desired;
  const previous = (workloadStatus(dep)['conditions'] as JsonObject[] | undefined) ?? [];
  // A condition keeps its transition time while its status stays the same.
  const since = (type: string, status: string) => previous.find((c) => c['type'] === type && c['status'] === status)?.['lastTransitionTime'] ?? at;
  return {
    observedGeneration: dep.metadata.generation,
    replicas: pods.length,
    updatedReplicas: updated,
    readyReplicas: ready,
    availableReplicas: ready,
    ...(pods.length - ready > 0 ? { unavailableReplicas: pods.length - ready } : {}),
    conditions: [
      {
        type: 'Available',
        status: available ? 'True' : 'False',
        reason: available ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
        message: available ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.',
        lastUpdateTime: at,
        lastTransitionTime: since('Available', available ? 'True' : 'False'),
      },
      {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${dep.metadata.name}-${hash}" has successfully progressed.`,
        lastUpdateTime: at,
        lastTransitionTime: since('Progressing', 'True'),
      },
    ],
  };
}

/** The controller-revision-hash label value of a stateful set's current template. */
export const statefulSetRevision = (sts: KubeObject): string => `${sts.metadata.name}-${templateHash(workloadSpec(sts).template)}`;

export function statefulSetStatus(sts: KubeObject, pods: KubeObject[]): JsonObject {
  const ready = pods.filter(isPodReady).length;
  const revision = statefulSetRevision(sts);
  const updated = pods.filter((p) => p.metadata.labels?.['controller-revision-hash'] === revision).length;
  return {
    observedGeneration: sts.metadata.generation,
    replicas: pods.length,
    readyReplicas: ready,
    availableReplicas: ready,
    currentReplicas: updated,
    updatedReplicas: updated,
    currentRevision: revision,
    updateRevision: revision,
    collisionCount: 0,
  };
}

/** The job controller gave up on the job (backoff limit reached): it makes no more pods. */
export function jobFailed(job: KubeObject): boolean {
  const conditions = (workloadStatus(job)['conditions'] as Array<{ type?: string; status?: string }> | undefined) ?? [];
  return conditions.some((c) => c.type === 'Failed' && c.status === 'True');
}

export function jobStatus(job: KubeObject, pods: KubeObject[]): JsonObject {
  const succeeded = pods.filter((p) => podPhase(p) === 'Succeeded').length;
  const active = pods.filter((p) => podPhase(p) !== 'Succeeded' && podPhase(p) !== 'Failed').length;
  const previous = workloadStatus(job);
  const completions = workloadSpec(job).completions ?? 1;
  const done = previous['completionTime'] !== undefined || succeeded >= completions;
  const status: JsonObject = {
    startTime: previous['startTime'] ?? job.metadata.creationTimestamp,
    ...(active > 0 ? { active } : {}),
    // A finished job keeps its count even after its pods are gone, as the real job controller does.
    succeeded: Math.max(succeeded, Number(previous['succeeded'] ?? 0)),
    ready: pods.filter(isPodReady).length,
    terminating: 0,
    uncountedTerminatedPods: {},
  };
  if (jobFailed(job)) {
    // A failed job keeps its failure (and its count of failed pods) for as long as it exists.
    status['failed'] = Math.max(pods.filter((p) => podPhase(p) === 'Failed').length, Number(previous['failed'] ?? 0));
    status['conditions'] = previous['conditions'];
  } else if (done) {
    const finished = (previous['completionTime'] as string | undefined) ?? kubeTime();
    const condition = (type: string) => ({ type, status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastProbeTime: finished, lastTransitionTime: finished });
    status['completionTime'] = finished;
    status['conditions'] = [condition('SuccessCriteriaMet'), condition('Complete')];
  }
  return status;
}
