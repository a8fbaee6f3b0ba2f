import type { PlatformNames } from '../../platform-names.js';
import { faultAnnotation, findFaultEntry, presentSymptoms, targets, waitingReasonOf, withFaults } from './faults.js';
import { isPodReady, podPhase, runningStatus } from './pods.js';
import { kinds } from './resources.js';
import type { ObjectStore } from './store.js';
import type { KubeObject } from './types.js';

/**
 * Puts the cluster into (and out of) the broken state of a guide entry, through ordinary store writes,
 * so clients watching the pods see the change as they would on a real cluster.
 */
export class Breakage {
  constructor(
    private readonly store: ObjectStore,
    private readonly names: PlatformNames,
  ) {}

  break(entryId: string, options: Record<string, unknown> = {}): void {
    const entry = findFaultEntry(entryId);
    const pods = this.store.list(kinds.pod, this.names.platformNamespace);
    for (const placement of entry.place(this.names, options)) {
      const hit = pods.filter((p) => targets(placement.pods, p));
      if (hit.length === 0) throw new Error(`cannot break ${entryId}: no pod matches ${JSON.stringify(placement.pods)} in ${this.names.platformNamespace}`);
      for (const pod of hit) {
        const current = this.store.get(kinds.pod, pod.metadata.namespace, pod.metadata.name ?? '');
        if (!current) continue;
        current.metadata.annotations = withFaults(current, [placement.fault]);
        this.restate(current);
      }
    }
  }

  heal(): void {
    for (const pod of this.store.list(kinds.pod)) {
      if (pod.metadata.annotations?.[faultAnnotation] === undefined) continue;
      pod.metadata.annotations = withFaults(pod, []);
      if (Object.keys(pod.metadata.annotations).length === 0) delete pod.metadata.annotations;
      this.restate(pod);
    }
  }

  symptoms(): string[] {
    return presentSymptoms(this.store.list(kinds.pod));
  }

  /** Writes the pod with a status that agrees with its faults (a fault may keep its containers from being ready). */
  private restate(pod: KubeObject): void {
    if (podPhase(pod) === 'Running') {
      const reason = waitingReasonOf(pod);
      if (reason !== undefined || !isPodReady(pod)) pod['status'] = runningStatus(pod, new Date(), reason);
    }
    this.store.update(kinds.pod, pod);
  }
}
