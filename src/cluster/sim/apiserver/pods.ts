import { randomBytes, randomInt } from 'node:crypto';
import type { JsonObject, KubeObject, OwnerReference } from './types.js';
import { clone, kubeTime } from './types.js';

/** A container as far as the simulator reads it. */
export interface Container {
  name: string;
  image?: string;
  [key: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  nodeName?: string;
  restartPolicy?: string;
  [key: string]: unknown;
}

/** `spec.template` of a workload. */
export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

/** The one node every simulated pod is scheduled on. */
export const nodeName = 'sim-node-1';
export const hostIP = '10.128.0.10';

// Kubernetes' SafeEncodeString alphabet: no vowels, no look-alike digits, so generated names never spell words.
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** A random suffix like the `-x7k2q` of generated names. */
export function randomSuffix(length = 5): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A stable short hash in the same alphabet, as pod-template-hash and controller-revision-hash are. */
export function safeHash(text: string, length = 10): string {
  let h = 2166136261;
  let out = '';
  for (let round = 0; out.length < length; round++) {
    for (const ch of `${round}:${text}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    out += alphabet[h % alphabet.length];
  }
  return out;
}

export function podSpecOf(pod: KubeObject): PodSpec {
  return (pod['spec'] as PodSpec | undefined) ?? { containers: [] };
}

/** A new pod from a workload's template, scheduled and Pending, the way a controller would create it. */
export function podFromTemplate(
  template: PodTemplate,
  meta: { name: string; namespace: string; labels?: Record<string, string>; owner?: OwnerReference },
): KubeObject {
  const spec = clone(template.spec);
  spec.nodeName = nodeName;
  spec.restartPolicy ??= 'Always';
  spec['dnsPolicy'] ??= 'ClusterFirst';
  spec['schedulerName'] ??= 'default-scheduler';
  spec['serviceAccountName'] ??= 'default';
  spec['terminationGracePeriodSeconds'] ??= 30;
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      labels: { ...(template.metadata?.labels ?? {}), ...(meta.labels ?? {}) },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ...(meta.owner ? { ownerReferences: [meta.owner] } : {}),
    },
    spec,
  };
  pod['status'] = pendingStatus(pod);
  return pod;
}

function condition(type: string, status: boolean, at: string, reason?: string): JsonObject {
  return { type, status: status ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: at, ...(reason ? { reason } : {}) };
}

function containerID(): string {
  return `containerd://${randomBytes(32).toString('hex')}`;
}

function imageID(image: string | undefined): string {
  return `${(image ?? 'unknown').split(':')[0]}@sha256:${randomBytes(32).toString('hex')}`;
}

/** Just scheduled: containers are being created, nothing is ready. */
export function pendingStatus(pod: KubeObject, now = new Date()): JsonObject {
  const at = kubeTime(now);
  const spec = podSpecOf(pod);
  const waiting = (c: Container, reason: string) => ({
    name: c.name,
    image: c.image ?? '',
    imageID: '',
    ready: false,
    started: false,
    restartCount: 0,
    state: { waiting: { reason } },
    lastState: {},
  });
  return {
    phase: 'Pending',
    conditions: [
      condition('PodReadyToStartContainers', false, at),
      condition('Initialized', !(spec.initContainers?.length), at, spec.initContainers?.length ? 'ContainersNotInitialized' : undefined),
      condition('Ready', false, at, 'ContainersNotReady'),
      condition('ContainersReady', false, at, 'ContainersNotReady'),
      condition('PodScheduled', true, at),
    ],
    hostIP,
    hostIPs: [{ ip: hostIP }],
    startTime: at,
    qosClass: 'BestEffort',
    ...(spec.initContainers?.length ? { initContainerStatuses: spec.initContainers.map((c) => waiting(c, 'PodInitializing')) } : {}),
    containerStatuses: spec.containers.map((c) => waiting(c, spec.initContainers?.length ? 'PodInitializing' : 'ContainerCreating')),
  };
}

/**
 * What keeps a started pod's container from being ready, as the kubelet reports it (sources:
 * pkg/kubelet/images/image_manager.go, pkg/kubelet/kuberuntime/kuberuntime_manager.go of kubernetes/kubernetes):
 * - an image that cannot be pulled: waiting `ErrImagePull` (message: the runtime's pull error) and then
 *   `ImagePullBackOff` (message `Back-off pulling image "<image>"`); the container never started, so
 *   the pod stays Pending;
 * - a container that keeps exiting: waiting `CrashLoopBackOff`, message
 *   `back-off 5m0s restarting failed container=<name> pod=<pod>_<namespace>(<uid>)`, its last state terminated;
 * - a container that runs but fails its readiness probe: running, not ready (no reason).
 */
export type ContainerTrouble =
  | { kind: 'image-pull'; container?: string; pullError: string }
  | { kind: 'crash-loop'; container?: string; exitCode?: number; restarts?: number }
  | { kind: 'unready'; container?: string; probeFailure: string };

const troubleOf = (troubles: readonly ContainerTrouble[], name: string) => troubles.find((t) => t.container === undefined || t.container === name);

/** A started pod's container status, given what troubles it. */
function startedContainer(pod: KubeObject, c: Container, at: string, trouble: ContainerTrouble | undefined): JsonObject {
  const base = { name: c.name, image: c.image ?? '', imageID: imageID(c.image), containerID: containerID() };
  if (trouble === undefined) return { ...base, ready: true, started: true, restartCount: 0, state: { running: { startedAt: at } }, lastState: {} };
  if (trouble.kind === 'unready') return { ...base, ready: false, started: true, restartCount: 0, state: { running: { startedAt: at } }, lastState: {} };
  if (trouble.kind === 'image-pull') {
    return { name: c.name, image: c.image ?? '', imageID: '', ready: false, started: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c.image ?? ''}"` } }, lastState: {} };
  }
  const podRef = `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
  return {
    ...base,
    ready: false,
    started: false,
    restartCount: trouble.restarts ?? 5,
    state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=${c.name} pod=${podRef}` } },
    lastState: { terminated: { exitCode: trouble.exitCode ?? 1, reason: 'Error', startedAt: at, finishedAt: at, containerID: base.containerID } },
  };
}

/**
 * Started: every container running and the pod Ready, unless `troubles` keep containers from being
 * ready (see ContainerTrouble); a container whose image cannot be pulled keeps the pod Pending.
 */
export function runningStatus(pod: KubeObject, now = new Date(), troubles: readonly ContainerTrouble[] = []): JsonObject {
  const at = kubeTime(now);
  const spec = podSpecOf(pod);
  const previous = (pod['status'] as { podIP?: string; startTime?: string } | undefined) ?? {};
  const podIP = previous.podIP ?? `10.244.${randomInt(0, 4)}.${randomInt(2, 254)}`;
  const containerStatuses = spec.containers.map((c) => startedContainer(pod, c, at, troubleOf(troubles, c.name)));
  const ready = containerStatuses.every((c) => c['ready'] === true);
  const pulling = spec.containers.some((c) => troubleOf(troubles, c.name)?.kind === 'image-pull');
  return {
    phase: pulling ? 'Pending' : 'Running',
    conditions: [
      condition('PodReadyToStartContainers', true, at),
      condition('Initialized', true, at),
      condition('Ready', ready, at, ready ? undefined : 'ContainersNotReady'),
      condition('ContainersReady', ready, at, ready ? undefined : 'ContainersNotReady'),
      condition('PodScheduled', true, at),
    ],
    hostIP,
    hostIPs: [{ ip: hostIP }],
    podIP,
    podIPs: [{ ip: podIP }],
    startTime: previous.startTime ?? at,
    qosClass: 'BestEffort',
    ...(spec.initContainers?.length
      ? {
          initContainerStatuses: spec.initContainers.map((c) => ({
            name: c.name,
            image: c.image ?? '',
            imageID: imageID(c.image),
            containerID: containerID(),
            ready: true,
            started: false,
            restartCount: 0,
            state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: at, finishedAt: at, containerID: containerID() } },
            lastState: {},
          })),
        }
      : {}),
    containerStatuses,
  };
}

/** Whether the kubelet has started the pod (its containers left ContainerCreating), even if one cannot pull its image. */
export function podStarted(pod: KubeObject): boolean {
  if (podPhase(pod) === 'Running') return true;
  const statuses = ((pod['status'] as { containerStatuses?: Array<{ state?: { waiting?: { reason?: string } } }> } | undefined)?.containerStatuses ?? []);
  return podPhase(pod) === 'Pending' && statuses.some((s) => ['ImagePullBackOff', 'ErrImagePull'].includes(s.state?.waiting?.reason ?? ''));
}

/** Ran to completion (job and build pods). */
export function succeededStatus(pod: KubeObject, now = new Date()): JsonObject {
  const at = kubeTime(now);
  const running = runningStatus(pod, now);
  const spec = podSpecOf(pod);
  return {
    ...running,
    phase: 'Succeeded',
    conditions: [
      condition('PodReadyToStartContainers', false, at),
      condition('Initialized', true, at),
      condition('Ready', false, at, 'PodCompleted'),
      condition('ContainersReady', false, at, 'PodCompleted'),
      condition('PodScheduled', true, at),
    ],
    containerStatuses: spec.containers.map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: imageID(c.image),
      containerID: containerID(),
      ready: false,
      started: false,
      restartCount: 0,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: running['startTime'], finishedAt: at, containerID: containerID() } },
      lastState: {},
    })),
  };
}

export function podPhase(pod: KubeObject): string {
  return (pod['status'] as { phase?: string } | undefined)?.phase ?? 'Pending';
}

export function isPodReady(pod: KubeObject): boolean {
  const conditions = (pod['status'] as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((o) => o.controller === true);
}
