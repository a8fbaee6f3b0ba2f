import type { LogLine, PodRuntime } from '../apiserver/pod-runtime.js';
import type { ContainerTrouble } from '../apiserver/pods.js';
import { podSpecOf } from '../apiserver/pods.js';
import { matchesLabels, parseLabelSelector } from '../apiserver/selectors.js';
import { isTerminating } from '../apiserver/termination.js';
import type { KubeObject } from '../apiserver/types.js';
import { stateEntries, stateFaults } from './broken-states/index.js';
import { routineLog } from './component-logs.js';
import { faultAnnotation, type FaultEntry, type PodFault, type PodTarget, type SimView } from './fault-model.js';
import { podFaultEntries, podFaults, pollOutcome } from './pod-faults.js';

export { faultAnnotation } from './fault-model.js';

/**
 * The guide entries the simulator can break. Adding one is one element in `podFaultEntries` (with its
 * faults) or in `stateEntries`; `break`, `heal`, `symptoms`, logs and replacement-pod inheritance all read this table.
 */
export const faultEntries: readonly FaultEntry[] = [...podFaultEntries, ...stateEntries];

const allFaults: readonly PodFault[] = [...Object.values(podFaults), ...stateFaults];

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

/** What keeps the pod's containers from being ready, from the faults it carries. */
export function troublesOf(pod: KubeObject): ContainerTrouble[] {
  return faultsOf(pod).flatMap((f) => (f.trouble ? [f.trouble(pod)] : []));
}

/** The faults a pod starts with (or, `running`, takes on as an entry breaks), given its namespace's pods and the entries broken now. */
export function inheritedFaults(view: SimView, newPod: KubeObject, podsNow: readonly KubeObject[], broken: ReadonlyMap<string, unknown>, running = false): PodFault[] {
  const out: PodFault[] = [];
  const spec = podSpecOf(newPod);
  const images = [...(spec.initContainers ?? []), ...spec.containers].map((c) => c.image ?? '');
  for (const entry of faultEntries) {
    for (const rule of entry.inheritance?.(view.names) ?? []) {
      if (!rule.newPods.some((t) => targets(t, newPod))) continue;
      const isBroken = broken.has(entry.entryId);
      const byPod = rule.whenPod !== undefined && isBroken && rule.whenPod(newPod, view, broken.get(entry.entryId));
      if (running) {
        if (byPod) out.push(rule.fault);
        continue;
      }
      const carrier = rule.whileAnyPodHas;
      // A Terminating pod serves no more, so it passes nothing on.
      const carrierPresent =
        carrier !== undefined && podsNow.some((p) => p.metadata.uid !== newPod.metadata.uid && !isTerminating(p) && faultsOf(p).some((f) => f.text === carrier.text));
      const badImage = rule.whenImage !== undefined && isBroken && images.some(rule.whenImage);
      if (carrierPresent || badImage || byPod) out.push(rule.fault);
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
 * cluster's state, a fault may keep containers from being ready, and each pod logs what its component
 * routinely writes (e.g. the git-sensor's polls) and its faults' lines. `broken` holds the entries broken
 * now (shared with Breakage); `view` gives the cluster's objects, for faults that depend on them.
 */
export function faultyPods(view: () => SimView | undefined, broken: ReadonlyMap<string, unknown>): PodRuntime {
  return {
    preparePod(pod, podsInNamespace) {
      const world = view(); // undefined while the standard install is being seeded: nothing is broken yet
      const inherited = world ? inheritedFaults(world, pod, podsInNamespace, broken) : [];
      if (inherited.length > 0) pod.metadata.annotations = withFaults(pod, inherited);
    },
    troubles: troublesOf,
    logLines(pod, now): LogLine[] {
      const faults = faultsOf(pod);
      const world = view();
      const routine = faults.some((f) => f.replacesRoutine) || !world ? [] : routineLog(pod, now, world.names, { polls: pollOutcome(world, broken), dataSourceRefused: broken.has('datasource-update-failed') && world.dashboard.refusesPlatformUpdate(), databaseLog: world.database?.serverLog() });
      return [...routine, ...faults.flatMap((f) => f.log(pod, now))];
    },
  };
}
