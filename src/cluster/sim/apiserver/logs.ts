import { statusErrors } from './errors.js';
import type { LogLine } from './pod-runtime.js';
import { podPhase, podSpecOf } from './pods.js';
import type { KubeObject } from './types.js';

/** Options of `GET .../pods/{name}/log` that the simulator honours. */
export interface LogOptions {
  container?: string;
  tailLines?: number;
  timestamps?: boolean;
  /** `previous=true`: the log of the container's last terminated instance. */
  previous?: boolean;
}

interface ContainerStatus {
  name?: string;
  lastState?: { terminated?: { containerID?: string; startedAt?: string } };
}

/**
 * The last terminated instance of a container, as the kubelet looks it up for `previous=true`
 * (validateContainerLogStatus in pkg/kubelet/kubelet_pods.go): without one whose container id is known,
 * the answer is a 400 `previous terminated container "c" in pod "p" not found`, which kube-apiserver passes on.
 */
function previousInstance(pod: KubeObject, container: string): { startedAt?: string } {
  const status = (pod['status'] as { containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[] } | undefined) ?? {};
  const found = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])].find((c) => c.name === container);
  const terminated = found?.lastState?.terminated;
  if (!terminated?.containerID) throw statusErrors.badRequest(`previous terminated container "${container}" in pod "${pod.metadata.name ?? ''}" not found`);
  return terminated;
}

/**
 * A pod's log: a few start-up lines, then `runtimeLines` (what the pod's runtime says its containers log,
 * e.g. a component's periodic work and a fault's errors), oldest first. Lines are dated from the pod's
 * start unless they carry their own time, so that a replaced pod visibly has a new, clean log. As the
 * kubelet serves it, a line is the container's own text; `timestamps` prefixes the RFC 3339 time the
 * runtime received it (pkg/kubelet/kuberuntime/logs/logs.go).
 */
export function podLog(pod: KubeObject, options: LogOptions, runtimeLines: readonly LogLine[]): string {
  const name = pod.metadata.name ?? '';
  const spec = podSpecOf(pod);
  const all = [...(spec.initContainers ?? []), ...spec.containers];
  let container = options.container;
  if (!container) {
    if (spec.containers.length !== 1) {
      throw statusErrors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${spec.containers.map((c) => c.name).join(' ')}]`);
    }
    container = spec.containers[0]?.name;
  }
  const chosen = all.find((c) => c.name === container);
  if (!chosen) throw statusErrors.badRequest(`container ${container ?? ''} is not valid for pod ${name}`);
  const previous = options.previous ? previousInstance(pod, chosen.name) : undefined;
  if (!previous && podPhase(pod) === 'Pending') {
    // The kubelet's words for the common pending states (validateContainerLogStatus, pkg/kubelet/kubelet_pods.go).
    const statuses = (pod['status'] as { containerStatuses?: Array<{ name: string; state?: { waiting?: { reason?: string } } }> } | undefined)?.containerStatuses ?? [];
    const reason = statuses.find((s) => s.name === chosen.name)?.state?.waiting?.reason ?? 'ContainerCreating';
    const why = reason === 'ErrImagePull' ? "image can't be pulled" : reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : reason;
    throw statusErrors.badRequest(`container "${chosen.name}" in pod "${name}" is waiting to start: ${why}`);
  }
  // A previous instance's log starts when that instance started; the current one's when the pod did.
  const started = Date.parse(previous?.startedAt ?? (pod['status'] as { startTime?: string } | undefined)?.startTime ?? '') || Date.now();
  const messages: LogLine[] = [`I starting ${chosen.name} (${chosen.image ?? 'unknown image'})`, 'I configuration loaded', 'I listening on :8080'];
  const isInit = (spec.initContainers ?? []).some((c) => c.name === chosen.name);
  if (!isInit) messages.push(...runtimeLines);
  const dated = messages
    .map((m, i) => (typeof m === 'string' ? { at: new Date(started + i * 1000), text: m } : m))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  let lines = dated.map(({ at, text }) => (options.timestamps ? `${at.toISOString()} ${text}` : text));
  if (options.tailLines !== undefined && options.tailLines >= 0) lines = lines.slice(Math.max(0, lines.length - options.tailLines));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
