import { startBuild } from './broken-states/build-started.js';
import type { PlatformNames } from '../../../platform-names.js';
import { stateEntries } from './broken-states/index.js';
import { podSpecOf } from '../apiserver/pods.js';
import { matchesLabels, parseLabelSelector } from '../apiserver/selectors.js';
import type { ObjectStore } from '../apiserver/store.js';
import type { KubeObject } from '../apiserver/types.js';

/** The annotation that marks a pod as carrying one or more faults (texts joined by "; "). */
export const faultAnnotation = 'sim.platform-medic.dev/fault';

/** Something wrong inside one pod, which lasts until the pod is replaced by a clean one. */
export interface PodFault {
  /** The guide entry whose symptom this fault produces. */
  entry: string;
  /** The annotation text; unique across faults. */
  text: string;
  /** What the pod's log shows while it carries the fault. */
  logLines: string[];
  /** When set, the container is shown waiting with this reason (e.g. CrashLoopBackOff) instead of ready. */
  waitingReason?: string;
}

/** Which pods of the platform namespace a rule is about. */
export type PodTarget = { label: string } | { name: string };

/** "Put this fault on these pods" — what breaking an entry does. */
export interface FaultPlacement {
  pods: PodTarget;
  fault: PodFault;
}

/**
 * "Pods newly created for `newPods` start with `fault`": while any pod carries `whileAnyPodHas`, or,
 * while the entry is broken, when one of the new pod's images matches `whenImage` (an image source
 * that went away: replacing the pod does not help until its workload names another image).
 */
export interface InheritanceRule {
  newPods: PodTarget[];
  fault: PodFault;
  whileAnyPodHas?: PodFault;
  whenImage?: (image: string) => boolean;
}

/** What a broken state that lives in objects (not in pods' faults) reads and writes. */
export interface SimView {
  readonly store: ObjectStore;
  readonly names: PlatformNames;
}

/**
 * A guide entry the simulator can break: where its pod faults go and how they spread to replacement
 * pods, and/or how it changes objects (`breakState`) and how to tell from the objects that the
 * symptom is still there (`present`, judged only while the entry is broken).
 */
export interface FaultEntry {
  entryId: string;
  guideEntry: number;
  place?(names: PlatformNames, options: Record<string, unknown>): FaultPlacement[];
  inheritance?(names: PlatformNames): InheritanceRule[];
  /** Puts objects into the broken state; returns what `present` needs to remember (e.g. the old password's hash). */
  breakState?(view: SimView, options: Record<string, unknown>): unknown;
  present?(view: SimView, memo: unknown): boolean;
}

const faults = {
  ssoConfigNotLoaded: {
    entry: 'sso-login',
    text: 'configuration saved but not loaded',
    logLines: [
      'E authVerification failed: no token provided',
      'E sso provider discovery failed: Get "devtron.example.com/orchestrator/api/dex/.well-known/openid-configuration": unsupported protocol scheme ""',
    ],
  },
  watcherNotRelaying: {
    entry: 'build-logs',
    text: 'build events not relayed',
    logLines: ['E pubsub: no message received on CI-RUNNER.CI-WORKFLOW-STATUS-UPDATE for 300s', 'E build log stream closed: watcher not relaying'],
  },
  brokerNotDelivering: {
    entry: 'build-logs',
    text: 'message broker not delivering build events',
    logLines: ['[ERR] STREAM: Channel "CI-RUNNER.CI-WORKFLOW-STATUS-UPDATE" - unable to deliver message: slow consumer, messages dropped'],
  },
  databaseImageUnavailable: {
    entry: 'database-image-pull',
    text: 'image source unavailable',
    logLines: ['E Failed to pull image "docker.io/bitnami/postgresql:11.3.0-debian-9-r28": manifest unknown', 'W Back-off pulling image'],
    waitingReason: 'ImagePullBackOff',
  },
  databaseUnreachable: {
    entry: 'database-image-pull',
    text: 'database unreachable',
    logLines: ['E dial tcp: lookup postgresql-postgresql.devtroncd: connection refused', 'F could not connect to the database, exiting'],
    waitingReason: 'CrashLoopBackOff',
  },
  latestCommitNotFetched: {
    entry: 'git-sensor-stuck',
    text: 'latest commit not fetched',
    logLines: ['E error in fetching latest commit: context deadline exceeded', 'W auto build not triggered: no new commit since last poll'],
  },
} satisfies Record<string, PodFault>;

/**
 * The guide entries the simulator can break. Adding one is one element here (and its faults above);
 * `break`, `heal`, `symptoms`, logs and replacement-pod inheritance all read this table.
 */
export const faultEntries: readonly FaultEntry[] = [
  {
    entryId: 'sso-login',
    guideEntry: 3,
    place: (n) => [{ pods: { label: n.mainPodLabel }, fault: faults.ssoConfigNotLoaded }],
  },
  {
    entryId: 'build-logs',
    guideEntry: 4,
    place: (n, options) => {
      const depth = options['depth'] ?? 'watcher';
      if (depth !== 'watcher' && depth !== 'broker') throw new Error(`build-logs depth must be "watcher" or "broker", not ${String(depth)}`);
      const relay: FaultPlacement[] = [
        { pods: { label: n.mainPodLabel }, fault: faults.watcherNotRelaying },
        { pods: { label: n.eventWatcherLabel }, fault: faults.watcherNotRelaying },
      ];
      if (depth === 'watcher') return relay;
      return [...relay, ...n.brokerPods.map((name) => ({ pods: { name }, fault: faults.brokerNotDelivering }))];
    },
    breakState: (view) => startBuild(view),
    // The guide's "still failing" case: restarting the relaying pods does not help while a broker is stuck.
    inheritance: (n) => [
      { whileAnyPodHas: faults.brokerNotDelivering, newPods: [{ label: n.mainPodLabel }, { label: n.eventWatcherLabel }], fault: faults.watcherNotRelaying },
    ],
  },
  {
    entryId: 'git-sensor-stuck',
    guideEntry: 10,
    place: (n) => [{ pods: { name: n.gitSensorPod }, fault: faults.latestCommitNotFetched }],
  },
  {
    entryId: 'database-image-pull',
    guideEntry: 9,
    place: (n) => [
      { pods: { name: n.databasePod }, fault: faults.databaseImageUnavailable },
      { pods: { label: n.mainPodLabel }, fault: faults.databaseUnreachable },
    ],
    // The old images stay unpullable: a recreated database pod fails again until the stateful set names
    // the replacement images; the main pod keeps crashing while the database pod does.
    inheritance: (n) => [
      { newPods: [{ name: n.databasePod }], fault: faults.databaseImageUnavailable, whenImage: (image) => image.startsWith('docker.io/bitnami/') },
      { newPods: [{ label: n.mainPodLabel }], fault: faults.databaseUnreachable, whileAnyPodHas: faults.databaseImageUnavailable },
    ],
  },
  ...stateEntries,
];

const allFaults: readonly PodFault[] = Object.values(faults);

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
      const carrierPresent = carrier !== undefined && podsNow.some((p) => p.metadata.uid !== newPod.metadata.uid && faultsOf(p).some((f) => f.text === carrier.text));
      const badImage = rule.whenImage !== undefined && broken.has(entry.entryId) && images.some(rule.whenImage);
      if (carrierPresent || badImage) out.push(rule.fault);
    }
  }
  return out;
}

/** Entry ids whose symptom is present: any pod still carries one of the entry's faults. */
export function presentSymptoms(pods: readonly KubeObject[]): string[] {
  const carried = new Set(pods.flatMap((p) => faultsOf(p).map((f) => f.entry)));
  return faultEntries.map((e) => e.entryId).filter((id) => carried.has(id));
}
