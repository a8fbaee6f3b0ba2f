import type { PlatformNames } from '../../../platform-names.js';
import type { LogLine } from '../apiserver/pod-runtime.js';
import type { ContainerTrouble } from '../apiserver/pods.js';
import type { ObjectStore } from '../apiserver/store.js';
import type { KubeObject } from '../apiserver/types.js';
import type { InstalledDashboard } from './dashboard/installed.js';
import type { PlatformDatabase } from './database.js';

/*
 * The shapes of the platform's faults: what breaking a guide entry does to pods and objects. Kept apart
 * from the tables of entries so that each broken state can name these types without importing the table
 * that lists it.
 */

/** The annotation that marks a pod as carrying one or more faults (texts joined by "; "): the simulator's own bookkeeping. */
export const faultAnnotation = 'sim.platform-medic.dev/fault';

/** Something wrong inside one pod, which lasts until the pod is replaced by a clean one. */
export interface PodFault {
  /** The guide entry whose symptom this fault produces. */
  entry: string;
  /** The annotation text; unique across faults (the simulator's bookkeeping: no detector reads it). */
  text: string;
  /** What the pod's containers log while it carries the fault, as of `now`, in the component's own format. */
  log(pod: KubeObject, now: Date): LogLine[];
  /** When set, what keeps the pod's containers from being ready (an image that cannot be pulled, a crash loop). */
  trouble?(pod: KubeObject): ContainerTrouble;
  /** The component's routine periodic log stops: the fault's `log` says everything the pod writes after start-up. */
  replacesRoutine?: boolean;
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
 * that went away: replacing the pod does not help until its workload names another image), or when
 * `whenPod` holds of the pod and the cluster (a full volume, a missing argument). Breaking an entry
 * also gives its `whenPod` fault to the pods running then, in any namespace: the world changed under them.
 */
export interface InheritanceRule {
  newPods: PodTarget[];
  fault: PodFault;
  whileAnyPodHas?: PodFault;
  whenImage?: (image: string) => boolean;
  /** `memo` is what the entry's `breakState` returned. */
  whenPod?: (pod: KubeObject, view: SimView, memo: unknown) => boolean;
}

/** What a broken state that lives in objects (not in pods' faults) reads and writes. */
export interface SimView {
  readonly store: ObjectStore;
  readonly names: PlatformNames;
  /** The platform's metrics dashboard (entries 5, 8, 11). */
  readonly dashboard: InstalledDashboard;
  /** The platform's PostgreSQL, when the simulated cluster was given one (entry 16). */
  readonly database?: PlatformDatabase;
}

/**
 * A guide entry the simulator can break: where its pod faults go and how they spread to replacement
 * pods, and/or how it changes objects (`breakState`) and how to tell from the objects that the
 * symptom is still there (`present`, judged only while the entry is broken).
 */
export interface FaultEntry {
  entryId: string;
  guideEntry: number;
  /** The depths `--broken ENTRY:DEPTH` may name, the first the default; none when the entry breaks one way. */
  depths?: readonly string[];
  place?(names: PlatformNames, options: Record<string, unknown>): FaultPlacement[];
  inheritance?(names: PlatformNames): InheritanceRule[];
  /** Puts objects into the broken state; returns what `present` needs to remember (e.g. the old password's hash). */
  breakState?(view: SimView, options: Record<string, unknown>): unknown;
  /**
   * Puts what lives outside the API server's objects (a real database) into the broken state; its
   * result is what `present` gets. `break()` resolves once it has.
   */
  breakOutside?(view: SimView, options: Record<string, unknown>): Promise<unknown>;
  present?(view: SimView, memo: unknown): boolean;
}
