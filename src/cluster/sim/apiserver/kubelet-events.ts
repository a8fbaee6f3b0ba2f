import { createHash } from 'node:crypto';
import type { PodRuntime } from './pod-runtime.js';
import type { ContainerTrouble } from './pods.js';
import { nodeName, podSpecOf, podStarted } from './pods.js';
import { kinds } from './resources.js';
import type { ObjectStore, StoreEvent } from './store.js';
import type { KubeObject } from './types.js';
import { kubeTime } from './types.js';

/** One event as the kubelet's recorder emits it about a container. */
interface KubeletEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/**
 * The kubelet's events for what troubles a container, with its reasons and message texts:
 * - image pulls (pkg/kubelet/images/image_manager.go): Normal Pulling `Pulling image "<image>"`, Warning
 *   Failed `Failed to pull image "<image>": <err>`, Normal BackOff `Back-off pulling image "<image>"`; and
 *   from kuberuntime_container.go startContainer, Warning Failed `Error: ErrImagePull` / `Error: ImagePullBackOff`;
 * - crash loops (kuberuntime_manager.go doBackOff): Warning BackOff `Back-off restarting failed container
 *   <name> in pod <pod>_<namespace>(<uid>)`;
 * - readiness (pkg/kubelet/prober/prober.go): Warning Unhealthy `Readiness probe failed: <output>`.
 */
function eventsFor(pod: KubeObject, container: { name: string; image?: string }, trouble: ContainerTrouble): KubeletEvent[] {
  const image = container.image ?? '';
  if (trouble.kind === 'image-pull') {
    return [
      { type: 'Normal', reason: 'Pulling', message: `Pulling image "${image}"` },
      { type: 'Warning', reason: 'Failed', message: `Failed to pull image "${image}": ${trouble.pullError}` },
      { type: 'Warning', reason: 'Failed', message: 'Error: ErrImagePull' },
      { type: 'Normal', reason: 'BackOff', message: `Back-off pulling image "${image}"` },
      { type: 'Warning', reason: 'Failed', message: 'Error: ImagePullBackOff' },
    ];
  }
  if (trouble.kind === 'crash-loop') {
    const podRef = `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
    return [{ type: 'Warning', reason: 'BackOff', message: `Back-off restarting failed container ${container.name} in pod ${podRef}` }];
  }
  return [{ type: 'Warning', reason: 'Unhealthy', message: `Readiness probe failed: ${trouble.probeFailure}` }];
}

/** How many times the kubelet has tried in `ms`: its back-off starts at 10 s and doubles up to 5 min. */
export function attemptsWithin(ms: number): number {
  let at = 0;
  let delay = 10_000;
  let attempts = 1;
  while (at + delay <= ms) {
    at += delay;
    attempts += 1;
    delay = Math.min(delay * 2, 300_000);
  }
  return attempts;
}

/**
 * Records the kubelet's events about troubled pods as they are written: one Event per (pod, reason,
 * message) as client-go's EventCorrelator aggregates them, its `count` and `lastTimestamp` growing with
 * the kubelet's retries since `firstTimestamp`. Healthy pods get no events here (the simulator leaves out
 * the routine Scheduled/Pulled/Started ones).
 */
export class KubeletEvents {
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: ObjectStore,
    private readonly runtime: PodRuntime,
  ) {
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe();
  }

  private onEvent({ type, kind, object: pod }: StoreEvent): void {
    if (kind !== kinds.pod || type === 'DELETED' || pod.metadata.deletionTimestamp !== undefined || !podStarted(pod)) return;
    const troubles = this.runtime.troubles(pod);
    if (troubles.length === 0) return;
    const now = new Date();
    for (const container of podSpecOf(pod).containers) {
      const trouble = troubles.find((t) => t.container === undefined || t.container === container.name);
      if (!trouble) continue;
      const fieldPath = `spec.containers{${container.name}}`;
      for (const e of eventsFor(pod, container, trouble)) this.record(pod, fieldPath, e, now);
    }
  }

  private record(pod: KubeObject, fieldPath: string, e: KubeletEvent, now: Date): void {
    recordEvent(this.store, { kind: 'Pod', apiVersion: 'v1', object: pod, fieldPath }, e, { component: 'kubelet', host: nodeName }, now);
  }
}

/** What an event is about. */
export interface Involved {
  kind: string;
  apiVersion: string;
  object: KubeObject;
  fieldPath?: string;
}

/**
 * Records one event as client-go's recorder does: one Event per (object, reason, message, source),
 * its `count` and `lastTimestamp` growing with the component's retries since `firstTimestamp`.
 */
export function recordEvent(
  store: ObjectStore,
  involved: Involved,
  e: { type: 'Normal' | 'Warning'; reason: string; message: string },
  source: { component: string; host?: string },
  now = new Date(),
): void {
  const { object } = involved;
  const namespace = object.metadata.namespace ?? '';
  const key = [object.metadata.uid, involved.fieldPath ?? '', e.type, e.reason, e.message, source.component].join('\u0000');
  const name = `${object.metadata.name ?? ''}.${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
  const existing = store.get(kinds.event, namespace, name);
  if (existing) {
    const first = Date.parse(String(existing['firstTimestamp']));
    store.update(kinds.event, { ...existing, count: attemptsWithin(now.getTime() - first), lastTimestamp: kubeTime(now) });
    return;
  }
  store.create(kinds.event, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: {
      kind: involved.kind,
      namespace,
      name: object.metadata.name,
      uid: object.metadata.uid,
      apiVersion: involved.apiVersion,
      resourceVersion: object.metadata.resourceVersion,
      ...(involved.fieldPath ? { fieldPath: involved.fieldPath } : {}),
    },
    reason: e.reason,
    message: e.message,
    source,
    firstTimestamp: kubeTime(now),
    lastTimestamp: kubeTime(now),
    count: 1,
    type: e.type,
    eventTime: null,
    reportingComponent: source.component,
    reportingInstance: source.host ?? '',
  });
}
