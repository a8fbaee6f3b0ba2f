import { compareQuantities } from '../../../quantity.js';
import { kinds } from './resources.js';
import type { Scheduler } from './scheduler.js';
import type { ObjectStore, StoreEvent } from './store.js';
import type { JsonObject, KubeObject } from './types.js';
import { kubeTime } from './types.js';

const requestOf = (claim: KubeObject) => (claim['spec'] as { resources?: { requests?: { storage?: string } } } | undefined)?.resources?.requests?.storage;
const statusOf = (claim: KubeObject) => (claim['status'] as JsonObject | undefined) ?? {};
const capacityOf = (claim: KubeObject) => (statusOf(claim)['capacity'] as { storage?: string } | undefined)?.storage ?? '0';

/**
 * The external resizer and the kubelet, for claims whose request grew past their capacity. The API server
 * only records the new request; the resizer marks the claim Resizing at once (with allocatedResources), and
 * `status.capacity` shows the new size only when the volume and its file system have grown, `resizeMs`
 * later: on a real cluster that takes from seconds to minutes, so "requested, not yet reported" is what a
 * client usually sees right after its patch.
 */
export class VolumeResizer {
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: ObjectStore,
    private readonly scheduler: Scheduler,
    private readonly resizeMs: () => number,
  ) {
    this.unsubscribe = store.subscribe((event) => this.onEvent(event));
  }

  stop(): void {
    this.unsubscribe();
  }

  private onEvent({ kind, type, object, previous }: StoreEvent): void {
    if (kind !== kinds.pvc || type !== 'MODIFIED' || !previous) return;
    const wanted = requestOf(object);
    if (wanted === undefined || wanted === requestOf(previous)) return;
    if ((compareQuantities(wanted, capacityOf(object)) ?? 0) <= 0) return;
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name ?? '';
    this.scheduler.after(0, () =>
      this.write(namespace, name, wanted, (status) => {
        status['allocatedResources'] = { storage: wanted };
        status['allocatedResourceStatuses'] = { storage: 'ControllerResizeInProgress' };
        status['conditions'] = [{ type: 'Resizing', status: 'True', lastProbeTime: null, lastTransitionTime: kubeTime() }];
      }),
    );
    this.scheduler.after(this.resizeMs(), () =>
      this.write(namespace, name, wanted, (status) => {
        status['capacity'] = { ...((status['capacity'] as JsonObject | undefined) ?? {}), storage: wanted };
        delete status['allocatedResourceStatuses'];
        delete status['conditions'];
      }),
    );
  }

  /** Changes the claim's status while it still asks for `wanted` (a later request has its own resize). */
  private write(namespace: string, name: string, wanted: string, change: (status: JsonObject) => void): void {
    const claim = this.store.get(kinds.pvc, namespace, name);
    if (!claim || requestOf(claim) !== wanted) return;
    const status = { ...statusOf(claim) };
    change(status);
    claim['status'] = status;
    this.store.update(kinds.pvc, claim);
  }
}
