import { bytesOf } from '../../../../quantity.js';
import type { FaultEntry } from '../fault-model.js';
import { kinds } from '../../apiserver/resources.js';
import type { KubeObject } from '../../apiserver/types.js';

const capacityOf = (claim: KubeObject | undefined) => (claim?.['status'] as { capacity?: { storage?: string } } | undefined)?.capacity?.storage ?? '0';

/**
 * Entry 24: the git-sensor's claim is full at its size (10Gi) and its storage class does not allow
 * expansion (`expansion: true` makes it allow it, for the "already allowed" case). Fixed when the claim
 * has grown beyond the size it was full at.
 */
export const gitSensorVolumeFull: FaultEntry = {
  entryId: 'git-sensor-volume-full',
  guideEntry: 24,
  breakState({ store, names }, options) {
    const claim = store.get(kinds.pvc, names.platformNamespace, names.gitSensorClaim);
    if (!claim) throw new Error(`cannot break git-sensor-volume-full: no claim ${names.gitSensorClaim}`);
    const className = (claim['spec'] as { storageClassName?: string }).storageClassName ?? '';
    const sc = store.get(kinds.storageClass, undefined, className);
    if (sc) store.update(kinds.storageClass, { ...sc, allowVolumeExpansion: options['expansion'] === true });
    return bytesOf(capacityOf(claim));
  },
  present: ({ store, names }, fullAt) => {
    const now = bytesOf(capacityOf(store.get(kinds.pvc, names.platformNamespace, names.gitSensorClaim)));
    return now !== undefined && typeof fullAt === 'bigint' && now <= fullAt;
  },
};
