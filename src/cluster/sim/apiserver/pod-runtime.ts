import type { ContainerTrouble } from './pods.js';
import type { KubeObject } from './types.js';

/** A line a container logs: plain text (dated after the container's start-up lines), or text at its own time. */
export type LogLine = string | { at: Date; text: string };

/**
 * What happens inside a pod, which the API server and the controllers cannot know: whether its containers
 * come up, and what they log. The generic cluster asks this interface; the platform's world answers it
 * (its faults make containers crash and log errors), so the API server never imports the platform.
 */
export interface PodRuntime {
  /** Called just before a controller creates a pod; may change the pod (e.g. give a replacement a fault it inherits). */
  preparePod(pod: KubeObject, podsInNamespace: readonly KubeObject[]): void;
  /** What keeps the pod's containers from being ready once started (an image that cannot be pulled, a crash loop); none when healthy. */
  troubles(pod: KubeObject): ContainerTrouble[];
  /** Lines the pod's (non-init) containers log after starting up, as of `now`. */
  logLines(pod: KubeObject, now: Date): LogLine[];
}

/** Pods in which nothing goes wrong: they start, become ready and log only their start-up. */
export const healthyPods: PodRuntime = {
  preparePod: () => undefined,
  troubles: () => [],
  logLines: () => [],
};
