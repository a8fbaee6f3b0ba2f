import { statusErrors } from './errors.js';
import { podPhase, podSpecOf } from './pods.js';
import type { KubeObject } from './types.js';

/** Options of `GET .../pods/{name}/log` that the simulator honours. */
export interface LogOptions {
  container?: string;
  tailLines?: number;
  timestamps?: boolean;
}

/**
 * A pod's log: a few start-up lines, then `runtimeLines` (what the pod's runtime says its containers log,
 * e.g. a fault's errors). Lines are dated from the pod's start so that a replaced pod visibly has a new, clean log.
 */
export function podLog(pod: KubeObject, options: LogOptions, runtimeLines: readonly string[]): string {
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
  if (podPhase(pod) === 'Pending') {
    throw statusErrors.badRequest(`container "${chosen.name}" in pod "${name}" is waiting to start: ContainerCreating`);
  }
  const started = Date.parse((pod['status'] as { startTime?: string } | undefined)?.startTime ?? '') || Date.now();
  const messages = [`I starting ${chosen.name} (${chosen.image ?? 'unknown image'})`, 'I configuration loaded', 'I listening on :8080'];
  const isInit = (spec.initContainers ?? []).some((c) => c.name === chosen.name);
  if (!isInit) messages.push(...runtimeLines);
  let lines = messages.map((m, i) => {
    const stamp = new Date(started + i * 1000).toISOString();
    return options.timestamps ? `${stamp} ${stamp.replace(/\.\d+Z$/, 'Z')} ${m}` : `${stamp.replace(/\.\d+Z$/, 'Z')} ${m}`;
  });
  if (options.tailLines !== undefined && options.tailLines >= 0) lines = lines.slice(Math.max(0, lines.length - options.tailLines));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
