import type { FaultEntry } from '../fault-model.js';
import { admitCrd } from '../../apiserver/custom-resources.js';
import { kinds } from '../../apiserver/resources.js';
import { rolloutCrd, rolloutCrdIsCurrent } from '../rollout-crd.js';

/** Entry 2: the rollout CRD is an old version; fixed when a current one is applied. */
export const rolloutCrdsOutdated: FaultEntry = {
  entryId: 'rollout-crds-outdated',
  guideEntry: 2,
  breakState({ store }) {
    const old = rolloutCrd('outdated');
    // An outdated definition is still an established one: its rollouts stay served.
    admitCrd(old);
    const current = store.get(kinds.crd, undefined, old.metadata.name ?? '');
    if (current) store.update(kinds.crd, { ...old, metadata: { ...old.metadata, resourceVersion: current.metadata.resourceVersion } });
    else store.create(kinds.crd, old);
  },
  present: ({ store }) => !rolloutCrdIsCurrent(store.get(kinds.crd, undefined, 'rollouts.argoproj.io')),
};
