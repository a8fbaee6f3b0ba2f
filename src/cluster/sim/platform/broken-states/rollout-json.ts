import type { FaultEntry } from '../fault-model.js';
import type { KubeObject } from '../../apiserver/types.js';
import { customKinds } from '../custom-kinds.js';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

function rollout(name: string, namespace: string, lastApplied: string): KubeObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name, namespace, labels: { app: name }, annotations: { [lastAppliedAnnotation]: lastApplied } },
    spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: `quay.io/example/${name}:1.0.0` }] } } },
    status: { phase: 'Degraded', message: 'InvalidSpec: Invalid JSON Document' },
  };
}

/** A last-applied configuration as kubectl writes it: the object itself, as compact JSON. */
function configOf(name: string, namespace: string): string {
  return JSON.stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', metadata: { name, namespace }, spec: { replicas: 1, selector: { matchLabels: { app: name } } } });
}

/**
 * Entry 25: a rollout whose last-applied-configuration was edited by hand into invalid JSON (a
 * trailing comma: unambiguous to repair); with `ambiguous: true`, also one broken in the middle (a
 * value lost between a key and the next key), which only a person can repair.
 */
export const rolloutInvalidJson: FaultEntry = {
  entryId: 'rollout-invalid-json',
  guideEntry: 25,
  breakState({ store, names }, options) {
    const ns = names.platformNamespace;
    const broken: Array<[string, string]> = [['payments-api', configOf('payments-api', ns).replace(/}}}$/, '}},}')]];
    if (options['ambiguous'] === true) broken.push(['orders-web', configOf('orders-web', ns).replace('"replicas":1,', '"replicas":,')]);
    for (const [name, text] of broken) {
      if (store.get(customKinds.rollout, ns, name)) store.delete(customKinds.rollout, ns, name);
      store.create(customKinds.rollout, rollout(name, ns, `${text}\n`));
    }
  },
  present: ({ store, names }) =>
    store.list(customKinds.rollout, names.platformNamespace).some((r) => {
      const text = r.metadata.annotations?.[lastAppliedAnnotation];
      if (text === undefined) return false;
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    }),
};
