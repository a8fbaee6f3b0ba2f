import { ClusterError } from '../../cluster/errors.js';
import { sleep } from './support.js';

/** The refusal of kube-apiserver's PersistentVolumeClaimResize admission plugin when the class does not (yet) allow expansion. */
const classRefusal = 'the storageclass that provisions the pvc must support resize';

export const isClassRefusal = (err: unknown): err is ClusterError => err instanceof ClusterError && err.code === 'refused' && err.message.includes(classRefusal);

/** Waits between tries: the plugin's informer cache usually catches up within a second; 6.2 s in all. */
const backoffMs = [200, 400, 800, 1600, 3200];

/** A resize the admission plugin kept refusing although the class, read through the API, allows expansion. */
export class StillRefused extends Error {
  constructor(
    readonly tries: number,
    readonly refusal: string,
  ) {
    super(refusal);
    this.name = 'StillRefused';
  }
}

/**
 * Writes a claim's larger size through the API server's PersistentVolumeClaimResize admission plugin, which
 * reads StorageClasses from an informer cache (plugin/pkg/admission/storage/persistentvolume/resize/admission.go):
 * right after a step made the class expandable, the plugin may still see the old class and refuse. That
 * refusal, and only that one, is tried again with backoff while the class (read through the API) allows
 * expansion; every other error, and the refusal when the class really does not allow it, goes to the caller.
 */
export async function resizeThroughAdmission<T>(write: () => Promise<T>, classAllows: () => Promise<boolean>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!isClassRefusal(err) || !(await classAllows())) throw err;
      const wait = backoffMs[attempt];
      if (wait === undefined) throw new StillRefused(attempt + 1, err.detail ?? err.message);
      await sleep(wait);
    }
  }
}
