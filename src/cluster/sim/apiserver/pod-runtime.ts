import type { KubeObject } from './types.js';

/**
 * What happens inside a pod, which the API server and the controllers cannot know: whether its containers
 * come up, and what they log. The generic cluster asks this interface; the platform's world answers it
 * (its faults make containers crash and log errors), so the API server never imports the platform.
 */
export interface PodRuntime {
  /** Called just before a controller creates a pod; may change the pod (e.g. give a replacement a fault it inherits). */
  preparePod(pod: KubeObject, podsInNamespace: readonly KubeObject[]): void;
  /** When set, the pod's containers are shown waiting with this reason (e.g. CrashLoopBackOff) instead of ready. */
  waitingReason(pod: KubeObject): string | undefined;
  /** Lines the pod's (non-init) containers log after starting up. */
  logLines(pod: KubeObject): string[];
}

/** Pods in which nothing goes wrong: they start, become ready and log only their start-up. */
export const healthyPods: PodRuntime = {
  preparePod: () => undefined,
  waitingReason: () => undefined,
  logLines: () => [],
};
