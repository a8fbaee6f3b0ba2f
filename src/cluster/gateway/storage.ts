import { CoreV1Api, PatchStrategy, StorageV1Api, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { type ApiCaller, dryRunOf } from './call.js';

/** A claim's size as requested and as provisioned. */
export interface ClaimSize {
  readonly uid: string;
  readonly resourceVersion: string;
  readonly storageClassName: string;
  readonly requested: string;
  readonly capacity: string;
  /** The claim's conditions while a resize is under way, e.g. `Resizing` or `FileSystemResizePending: …`. */
  readonly conditions: readonly string[];
}

/** Whether a storage class lets its claims grow. */
export interface StorageClassExpansion {
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly allowVolumeExpansion: boolean;
}

/** Claims and storage classes: the git-sensor volume remedy (entry 24). */
export class StorageGateway {
  private readonly core: CoreV1Api;
  private readonly storage: StorageV1Api;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.storage = kubeConfig.makeApiClient(StorageV1Api);
  }

  async getClaim(namespace: string, name: string): Promise<ClaimSize | undefined> {
    const pvc = await this.api.find(`get persistentvolumeclaim ${namespace}/${name}`, () => this.core.readNamespacedPersistentVolumeClaim({ namespace, name }));
    if (!pvc) return undefined;
    return {
      uid: pvc.metadata?.uid ?? '',
      resourceVersion: pvc.metadata?.resourceVersion ?? '',
      storageClassName: pvc.spec?.storageClassName ?? '',
      requested: pvc.spec?.resources?.requests?.['storage'] ?? '',
      capacity: pvc.status?.capacity?.['storage'] ?? '',
      conditions: (pvc.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => (c.message ? `${c.type}: ${c.message}` : c.type)),
    };
  }

  /** Raises the claim's request; the resourceVersion in the merge patch is a precondition (409 if it moved). */
  async resizeClaim(namespace: string, name: string, size: string, resourceVersion: string, dryRun?: boolean): Promise<ClaimSize> {
    await this.api.call(`patch persistentvolumeclaim ${namespace}/${name}`, () =>
      this.core.patchNamespacedPersistentVolumeClaim(
        { namespace, name, body: { metadata: { resourceVersion }, spec: { resources: { requests: { storage: size } } } }, ...dryRunOf(dryRun) },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    const now = await this.getClaim(namespace, name);
    if (!now) throw new Error(`claim ${namespace}/${name} vanished right after it was patched`);
    return now;
  }

  async getStorageClass(name: string): Promise<StorageClassExpansion | undefined> {
    const sc = await this.api.find(`get storageclass ${name}`, () => this.storage.readStorageClass({ name }));
    if (!sc) return undefined;
    return { name, uid: sc.metadata?.uid ?? '', resourceVersion: sc.metadata?.resourceVersion ?? '', allowVolumeExpansion: sc.allowVolumeExpansion === true };
  }

  async allowExpansion(name: string, resourceVersion: string, dryRun?: boolean): Promise<StorageClassExpansion> {
    const sc = await this.api.call(`patch storageclass ${name}`, () =>
      this.storage.patchStorageClass({ name, body: { metadata: { resourceVersion }, allowVolumeExpansion: true }, ...dryRunOf(dryRun) }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)),
    );
    return { name, uid: sc.metadata?.uid ?? '', resourceVersion: sc.metadata?.resourceVersion ?? '', allowVolumeExpansion: sc.allowVolumeExpansion === true };
  }
}
