import { z } from 'zod';
import type { PodState } from '../../cluster/gateway.js';
import { labelName, namespaceName } from '../../remedies/steps/step.js';
import { defineDetector, hasLabels, objectName, type Evidence, type ListScope, type Read } from './detector.js';
import { clip } from './shown-text.js';

/** The kubelet's reasons for a container whose image does not pull. */
const pullReasons = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName']);

/**
 * Pods whose containers wait because their image does not pull (ErrImagePull / ImagePullBackOff), with
 * the kubelet's pull errors from the container state and the pods' warning events. `pods` is one of the
 * platform's named pods, or every pod of a scope; `messages` narrows to pull errors that say one of
 * these (e.g. 401, unauthorized); `dependants` adds the crash-looping pods that depend on it.
 */
const imagePullDetector = z.strictObject({
  kind: z.literal('imagePullFailing'),
  pods: z.union([z.strictObject({ pod: z.literal('databasePod'), in: namespaceName }), z.strictObject({ in: z.union([namespaceName, z.literal('cluster')]) })]),
  messages: z.array(z.string().min(3)).min(1).optional(),
  dependants: z.strictObject({ label: labelName, in: namespaceName }).optional(),
});
export type ImagePullDetector = z.infer<typeof imagePullDetector>;

const short = (text: string) => clip(text, 200);

const alphanumeric = (c: string | undefined): boolean => c !== undefined && /[a-z0-9]/i.test(c);

/**
 * Whether a pull error says `wanted` as words of its own: "401" in "401 Unauthorized", not inside an
 * image tag, a digest or an account id (`1234014012.dkr.ecr…`, `app:v403`).
 */
export function says(message: string, wanted: string): boolean {
  const text = message.toLowerCase();
  for (let at = text.indexOf(wanted); at >= 0; at = text.indexOf(wanted, at + 1)) {
    if (!alphanumeric(text[at - 1]) && !alphanumeric(text[at + wanted.length])) return true;
  }
  return false;
}

export const imagePullFailing = defineDetector({
  kind: 'imagePullFailing',
  detector: imagePullDetector,
  reads(d) {
    const scope: ListScope = d.pods.in;
    const reads: Read[] = [
      { list: 'pods', in: scope },
      { list: 'warnings', in: scope },
    ];
    if (d.dependants) reads.push({ list: 'pods', in: d.dependants.in });
    return reads;
  },
  detect(d, snap) {
    const scope: ListScope = d.pods.in;
    const ns = scope === 'cluster' ? undefined : snap.names[scope];
    const named = 'pod' in d.pods ? snap.names[d.pods.pod] : undefined;
    const wanted = d.messages?.map((m) => m.toLowerCase());
    const warnings = snap.warnings(scope);
    const evidence: Evidence[] = [];
    for (const pod of snap.pods(scope)) {
      if ((ns !== undefined && pod.namespace !== ns) || (named !== undefined && pod.name !== named)) continue;
      const stuck = pod.containers.filter((c) => c.waiting && pullReasons.has(c.waiting.reason));
      if (stuck.length === 0) continue;
      const events = warnings.filter((e) => e.namespace === pod.namespace && e.object.kind === 'Pod' && e.object.name === pod.name && /pull|image/i.test(`${e.reason} ${e.message}`));
      const messages = [...stuck.map((c) => c.waiting?.message ?? ''), ...events.map((e) => e.message)].filter((m) => m !== '');
      if (wanted && !messages.some((m) => wanted.some((w) => says(m, w)))) continue;
      const object = objectName('pod', pod.namespace, pod.name);
      for (const c of stuck) evidence.push({ object, detail: `container ${c.name} ${c.waiting?.reason}: image ${c.image}` });
      const said = (wanted ? messages.find((m) => wanted.some((w) => says(m, w))) : events[events.length - 1]?.message) ?? '';
      if (said !== '') evidence.push({ object, detail: short(said) });
    }
    if (evidence.length > 0 && d.dependants) evidence.push(...crashLooping(snap.pods(d.dependants.in), snap.names[d.dependants.in], snap.names[d.dependants.label]));
    return { state: evidence.length > 0 ? 'present' : 'absent', evidence };
  },
});

function crashLooping(pods: readonly PodState[], namespace: string, selector: string): Evidence[] {
  return pods
    .filter((p) => p.namespace === namespace && hasLabels(p, selector))
    .flatMap((p) => p.containers.filter((c) => c.waiting?.reason === 'CrashLoopBackOff').map((c) => ({ object: objectName('pod', p.namespace, p.name), detail: `depends on it: ${c.name} CrashLoopBackOff, ${c.restarts} restarts` })));
}
