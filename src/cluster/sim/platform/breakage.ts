import type { PlatformNames } from '../../../platform-names.js';
import type { SimView } from './fault-model.js';
import { faultAnnotation, faultEntries, findFaultEntry, inheritedFaults, presentSymptoms, targets, troublesOf, withFaults } from './faults.js';
import { isPodReady, podPhase, podStarted, runningStatus } from '../apiserver/pods.js';
import { kinds } from '../apiserver/resources.js';
import type { ObjectStore } from '../apiserver/store.js';
import type { KubeObject } from '../apiserver/types.js';

/**
 * Puts the cluster into (and out of) the broken state of a guide entry, through ordinary store writes,
 * so clients watching see the change as they would on a real cluster. `broken` (shared with the
 * controllers) remembers which entries are broken and what their state checks need.
 */
export class Breakage {
  private readonly store: ObjectStore;
  private readonly names: PlatformNames;

  constructor(
    private readonly view: SimView,
    private readonly broken: Map<string, unknown>,
  ) {
    this.store = view.store;
    this.names = view.names;
  }

  /** Breaks the entry at once, in the objects and pods; resolves when what lives outside them (a real database) is broken too. */
  break(entryId: string, options: Record<string, unknown> = {}): Promise<void> {
    const entry = findFaultEntry(entryId);
    const pods = this.store.list(kinds.pod, this.names.platformNamespace);
    for (const placement of entry.place?.(this.names, options) ?? []) {
      const hit = pods.filter((p) => targets(placement.pods, p));
      if (hit.length === 0) throw new Error(`cannot break ${entryId}: no pod matches ${JSON.stringify(placement.pods)} in ${this.names.platformNamespace}`);
      for (const pod of hit) this.addFaults(pod, [placement.fault]);
    }
    this.broken.set(entryId, entry.breakState?.(this.view, options));
    // The world changed under the pods running now (a volume filled up, a certificate the pods check).
    if (entry.inheritance?.(this.names).some((r) => r.whenPod !== undefined)) {
      for (const pod of this.store.list(kinds.pod)) {
        const faults = inheritedFaults(this.view, pod, [], new Map([[entryId, this.broken.get(entryId)]]), true);
        if (faults.length > 0 && podStarted(pod)) this.addFaults(pod, faults);
      }
    }
    const outside = entry.breakOutside;
    if (!outside) return Promise.resolve();
    return outside(this.view, options).then((memo) => void this.broken.set(entryId, memo));
  }

  /** Clears every pod fault and forgets the broken entries (objects changed by `breakState` stay as they are). */
  heal(): void {
    this.broken.clear();
    for (const pod of this.store.list(kinds.pod)) {
      if (pod.metadata.annotations?.[faultAnnotation] === undefined) continue;
      pod.metadata.annotations = withFaults(pod, []);
      if (Object.keys(pod.metadata.annotations).length === 0) delete pod.metadata.annotations;
      this.restate(pod);
    }
  }

  /** Entries whose symptom is present: a pod carries one of its faults, or (while broken) its objects still show it. */
  symptoms(): string[] {
    const fromPods = new Set(presentSymptoms(this.store.list(kinds.pod)));
    const view = this.view;
    return faultEntries
      .map((e) => e.entryId)
      .filter((id, i, all) => all.indexOf(id) === i)
      .filter((id) => {
        if (fromPods.has(id)) return true;
        const entry = findFaultEntry(id);
        return this.broken.has(id) && entry.present !== undefined && entry.present(view, this.broken.get(id));
      });
  }

  private addFaults(pod: KubeObject, faults: ReturnType<typeof inheritedFaults>): void {
    const current = this.store.get(kinds.pod, pod.metadata.namespace, pod.metadata.name ?? '');
    if (!current) return;
    current.metadata.annotations = withFaults(current, faults);
    this.restate(current);
  }

  /** Writes the pod with a status that agrees with its faults (a fault may keep its containers from being ready). */
  private restate(pod: KubeObject): void {
    if (podStarted(pod) && podPhase(pod) !== 'Succeeded' && podPhase(pod) !== 'Failed') {
      const troubles = troublesOf(pod);
      if (troubles.length > 0 || !isPodReady(pod)) pod['status'] = runningStatus(pod, new Date(), troubles);
    }
    this.store.update(kinds.pod, pod);
  }
}
