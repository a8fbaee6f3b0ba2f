import type { PlatformNames } from '../../../platform-names.js';
import type { PodRuntime } from '../apiserver/pod-runtime.js';
import { podSpecOf } from '../apiserver/pods.js';
import { matchesLabels, parseLabelSelector } from '../apiserver/selectors.js';
import { isTerminating } from '../apiserver/termination.js';
import type { KubeObject } from '../apiserver/types.js';
import { stateEntries } from './broken-states/index.js';
import { faultAnnotation, type FaultEntry, type PodFault, type PodTarget } from './fault-model.js';
import { podFaultEntries, podFaults } from './pod-faults.js';

export { faultAnnotation } from './fault-model.js';

/**
 * The guide entries the simulator can break. Adding one is one element in `podFaultEntries` (with its
 * faults) or in `stateEntries`; `break`, `heal`, `symptoms`, logs and replacement-pod inheritance all read this table.
 */
export const faultEntries: readonly FaultEntry[] = [...podFaultEntries, ...stateEntries];

const allFaults: readonly PodFault[] = Object.values(podFaults);

export function findFaultEntry(entryId: string): FaultEntry {
  const entry = faultEntries.find((e) => e.entryId === entryId);
  if (!entry) {
    throw new Error(`the simulated cluster cannot break "${entryId}"; it knows ${faultEntries.map((e) => e.entryId).join(', ')}`);
  }
  return entry;
}

export function targets(target: PodTarget, pod: KubeObject): boolean {
  if ('name' in target) return pod.metadata.name === target.name;
  return matchesLabels(parseLabelSelector(target.label), pod.metadata.labels);
}

/** The faults a pod carries, read from its annotation. */
export function faultsOf(pod: KubeObject): PodFault[] {
  const value = pod.metadata.annotations?.[faultAnnotation];
  if (!value) return [];
  return value
    .split('; ')
    .map((text) => allFaults.find((f) => f.text === text))
    .filter((f): f is PodFault => f !== undefined);
}

/** Returns a copy of the pod's metadata annotations with `add` faults added (or all removed when `add` is empty). */
export function withFaults(pod: KubeObject, add: readonly PodFault[]): Record<string, string> {
  const annotations = { ...(pod.metadata.annotations ?? {}) };
  const texts = add.length === 0 ? [] : [...new Set([...faultsOf(pod).map((f) => f.text), ...add.map((f) => f.text)])];
  if (texts.length === 0) delete annotations[faultAnnotation];
  else annotations[faultAnnotation] = texts.join('; ');
  return annotations;
}

export function waitingReasonOf(pod: KubeObject): string | undefined {
  return faultsOf(pod).find((f) => f.waitingReason !== undefined)?.waitingReason;
}

/** The faults a replacement pod starts with, given the pods currently in its namespace and the entries broken now. */
export function inheritedFaults(names: PlatformNames, newPod: KubeObject, podsNow: readonly KubeObject[], broken: ReadonlySet<string>): PodFault[] {
  const out: PodFault[] = [];
  const spec = podSpecOf(newPod);
  const images = [...(spec.initContainers ?? []), ...spec.containers].map((c) => c.image ?? '');
  for (const entry of faultEntries) {
    for (const rule of entry.inheritance?.(names) ?? []) {
      if (!rule.newPods.some((t) => targets(t, newPod))) continue;
      const carrier = rule.whileAnyPodHas;
      // A Terminating pod serves no more, so it passes nothing on.
      const carrierPresent =
        carrier !== undefined && podsNow.some((p) => p.metadata.uid !== newPod.metadata.uid && !isTerminating(p) && faultsOf(p).some((f) => f.text === carrier.text));
      const badImage = rule.whenImage !== undefined && broken.has(entry.entryId) && images.some(rule.whenImage);
      if (carrierPresent || badImage) out.push(rule.fault);
    }
  }
  return out;
}

/** Entry ids whose symptom is present: any pod still serving (not Terminating) carries one of the entry's faults. */
export function presentSymptoms(pods: readonly KubeObject[]): string[] {
  const carried = new Set(pods.filter((p) => !isTerminating(p)).flatMap((p) => faultsOf(p).map((f) => f.entry)));
  return faultEntries.map((e) => e.entryId).filter((id) => carried.has(id));
}

/**
 * The platform's pods as the generic cluster sees them: a replacement pod inherits faults from the
 * cluster's state, a fault may keep containers waiting, and each fault adds its lines to the pod's log.
 * `broken` holds the entries broken now (shared with Breakage): some faults spread only while broken.
 */
export function faultyPods(names: PlatformNames, broken: ReadonlyMap<string, unknown>): PodRuntime {
  return {
    preparePod(pod, podsInNamespace) {
      const inherited = inheritedFaults(names, pod, podsInNamespace, new Set(broken.keys()));
      if (inherited.length > 0) pod.metadata.annotations = withFaults(pod, inherited);
    },
    waitingReason: waitingReasonOf,
    logLines: (pod) => faultsOf(pod).flatMap((f) => f.logLines),
  };
}
