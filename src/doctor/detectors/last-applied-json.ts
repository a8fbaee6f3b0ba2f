import { z } from 'zod';
import { namespaceName } from '../../remedies/steps/step.js';
import { defineDetector, objectName, type Evidence } from './detector.js';

const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Entry 25: rollouts whose last-applied-configuration annotation is not valid JSON. The evidence names
 * where the JSON breaks, never the annotation's text (it may carry an application's values).
 */
const lastAppliedDetector = z.strictObject({
  kind: z.literal('lastAppliedJson'),
  custom: z.literal('rollout'),
  namespace: namespaceName,
});
export type LastAppliedJsonDetector = z.infer<typeof lastAppliedDetector>;

export const lastAppliedJson = defineDetector({
  kind: 'lastAppliedJson',
  detector: lastAppliedDetector,
  reads: (d) => [{ list: 'custom', custom: d.custom, in: d.namespace }],
  detect(d, snap) {
    const ns = snap.names[d.namespace];
    const objects = snap.custom(d.custom, d.namespace);
    if (objects === undefined) return { state: 'unknown', reason: 'not-installed', message: `rollouts are not installed in this cluster (no argoproj.io CRD)` };
    const evidence: Evidence[] = [];
    for (const o of objects) {
      const text = o.metadata.annotations?.[lastApplied];
      if (text === undefined) continue;
      try {
        JSON.parse(text);
      } catch (err) {
        const at = /position (\d+)/.exec(String(err))?.[1];
        evidence.push({ object: objectName('rollout', o.metadata.namespace ?? ns, o.metadata.name), detail: `${lastApplied} is not valid JSON${at ? ` (breaks at character ${at} of ${text.length})` : ''}` });
      }
    }
    return { state: evidence.length > 0 ? 'present' : 'absent', evidence };
  },
});
