import { AppsV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1StatefulSet } from '@kubernetes/client-node';
import { type ApiCaller, dryRunOf } from './call.js';

/** A container's name and image. */
export interface ContainerImage {
  readonly name: string;
  readonly image: string;
}

/** What the image remedy needs of a stateful set. */
export interface StatefulSetImages {
  readonly uid: string;
  readonly resourceVersion: string;
  readonly initContainers: ContainerImage[];
  readonly containers: ContainerImage[];
}

function images(sts: V1StatefulSet): StatefulSetImages {
  const spec = sts.spec?.template.spec;
  const pick = (cs: { name: string; image?: string }[] | undefined) => (cs ?? []).map((c) => ({ name: c.name, image: c.image ?? '' }));
  return { uid: sts.metadata?.uid ?? '', resourceVersion: sts.metadata?.resourceVersion ?? '', initContainers: pick(spec?.initContainers), containers: pick(spec?.containers) };
}

/** Stateful sets: read their images and patch them. */
export class WorkloadsGateway {
  private readonly apps: AppsV1Api;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.apps = kubeConfig.makeApiClient(AppsV1Api);
  }

  async getStatefulSet(namespace: string, name: string): Promise<StatefulSetImages | undefined> {
    const sts = await this.api.find(`get statefulset ${namespace}/${name}`, () => this.apps.readNamespacedStatefulSet({ namespace, name }));
    return sts && images(sts);
  }

  /**
   * A strategic merge patch (containers merge by name, so only the named containers change). The
   * resourceVersion in the patch is a precondition: a stateful set changed since it was read gives 409.
   */
  async patchStatefulSet(namespace: string, name: string, patch: object, dryRun?: boolean): Promise<StatefulSetImages> {
    const sts = await this.api.call(`patch statefulset ${namespace}/${name}`, () =>
      this.apps.patchNamespacedStatefulSet({ namespace, name, body: patch, ...dryRunOf(dryRun) }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch)),
    );
    return images(sts);
  }
}
