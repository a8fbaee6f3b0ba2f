import { podPhase, podSpecOf } from './pods.js';
import { kinds } from './resources.js';
import type { Scheduler } from './scheduler.js';
import type { ObjectStore } from './store.js';
import type { KubeObject } from './types.js';
import { kubeTime } from './types.js';

/** How deleted pods leave the simulated cluster. */
export interface TerminationSettings {
  /**
   * How long a deleted pod's containers take to stop once told. The pod object goes when they have stopped
   * or when its grace period ends, whichever comes first (the kubelet kills what is still running then).
   */
  stopMs: number;
  /** While true, deleted pods stay Terminating (their node does not answer) until `release()`. */
  hold: boolean;
}

/** Whether the pod is being deleted (Terminating): it has a deletionTimestamp. */
export function isTerminating(obj: KubeObject): boolean {
  return typeof obj.metadata['deletionTimestamp'] === 'string';
}

/**
 * Graceful deletion of pods, as the API server and the kubelet do it together. A DELETE of a pod on a node
 * does not remove it: the server sets `deletionTimestamp` (now + grace) and `deletionGracePeriodSeconds`,
 * and the pod lingers Terminating until its kubelet has stopped the containers and deletes it for good
 * (with grace 0). The grace is the request's gracePeriodSeconds, else the pod's
 * terminationGracePeriodSeconds (30 by default); 0 for a pod on no node or one that has already finished
 * (pkg/registry/core/pod/strategy.go, CheckGracefulDelete). A second DELETE may only shorten the grace
 * (k8s.io/apiserver/pkg/registry/rest/delete.go, BeforeDelete).
 */
export class PodTermination {
  private readonly held = new Map<string, { namespace: string; name: string; uid: string }>();

  constructor(
    private readonly store: ObjectStore,
    private readonly scheduler: Scheduler,
    private readonly settings: TerminationSettings,
  ) {}

  /** Deletes a pod as a DELETE request does; returns what the server answers with (the pod, Terminating or gone). */
  delete(namespace: string, name: string, gracePeriodSeconds: number | undefined, dryRun = false): KubeObject {
    const pod = this.store.get(kinds.pod, namespace, name);
    if (!pod) return this.store.delete(kinds.pod, namespace, name);
    const period = this.period(pod, gracePeriodSeconds);
    if (period === undefined) return pod;
    if (period === 0) return this.store.delete(kinds.pod, namespace, name, { dryRun });
    const previous = pod.metadata['deletionGracePeriodSeconds'] as number | undefined;
    const startedAt = typeof pod.metadata['deletionTimestamp'] === 'string' ? Date.parse(pod.metadata['deletionTimestamp']) - (previous ?? 0) * 1000 : Date.now();
    pod.metadata['deletionTimestamp'] = kubeTime(new Date(startedAt + period * 1000));
    pod.metadata['deletionGracePeriodSeconds'] = period;
    if (dryRun) return pod;
    const updated = this.store.update(kinds.pod, pod);
    this.stopLater(updated, period);
    return updated;
  }

  /** Lets every pod held Terminating go, as its kubelet would once the node answers again. */
  release(): void {
    const held = [...this.held.values()];
    this.held.clear();
    for (const pod of held) this.finish(pod.namespace, pod.name, pod.uid);
  }

  /** The grace to apply; undefined when a deletion already pending is left as it is. */
  private period(pod: KubeObject, requested: number | undefined): number | undefined {
    const pending = pod.metadata['deletionGracePeriodSeconds'] as number | undefined;
    if (isTerminating(pod)) {
      if (pending === undefined || pending === 0) return 0;
      if (requested === undefined || Math.max(requested, 0) >= pending) return undefined;
      return Math.max(requested, 0);
    }
    const spec = podSpecOf(pod);
    let period = requested ?? (typeof spec['terminationGracePeriodSeconds'] === 'number' ? spec['terminationGracePeriodSeconds'] : 0);
    if (!spec.nodeName) period = 0;
    const phase = podPhase(pod);
    if (phase === 'Succeeded' || phase === 'Failed') period = 0;
    if (period < 0) period = 1;
    return period;
  }

  private stopLater(pod: KubeObject, period: number): void {
    const who = { namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
    if (this.settings.hold) {
      this.held.set(`${who.namespace}/${who.name}`, who);
      return;
    }
    this.scheduler.after(Math.min(this.settings.stopMs, period * 1000), () => this.finish(who.namespace, who.name, who.uid));
  }

  /** The kubelet's last word: the containers have stopped, so the pod is deleted with grace 0 (uid-preconditioned). */
  private finish(namespace: string, name: string, uid: string): void {
    const pod = this.store.get(kinds.pod, namespace, name);
    if (!pod || pod.metadata.uid !== uid || !isTerminating(pod)) return;
    this.store.delete(kinds.pod, namespace, name);
  }
}
