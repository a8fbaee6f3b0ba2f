import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { ClusterError } from '../errors.js';
import { type ApiCaller, dryRunOf } from './call.js';

/** A custom resource the remedies touch. */
export interface CustomKind {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
}

export const customKinds = {
  installer: { group: 'installer.devtron.ai', version: 'v1alpha1', plural: 'installers', kind: 'Installer' },
  rollout: { group: 'argoproj.io', version: 'v1alpha1', plural: 'rollouts', kind: 'Rollout' },
  backendConfig: { group: 'cloud.google.com', version: 'v1', plural: 'backendconfigs', kind: 'BackendConfig' },
} as const satisfies Record<string, CustomKind>;

/** A namespaced custom object as JSON, exactly as the API server sends it. */
export interface CustomObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; uid?: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** Custom resources of the platform's namespace: the installer object, rollouts, backend configurations. */
export class CustomGateway {
  private readonly custom: CustomObjectsApi;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  /**
   * Whether the cluster serves this resource type: its group version's discovery lists it. A custom
   * resource exists only while its CRD exists and is Established; until then every request for it is a 404.
   */
  async served(kind: CustomKind): Promise<boolean> {
    try {
      const list = await this.api.find(`discover ${kind.group}/${kind.version}`, () => this.custom.getAPIResources({ group: kind.group, version: kind.version }));
      return (list?.resources ?? []).some((r) => r.name === kind.plural);
    } catch (err) {
      if (err instanceof ClusterError && err.code === 'no-such-type') return false;
      throw err;
    }
  }

  async get(kind: CustomKind, namespace: string, name: string): Promise<CustomObject | undefined> {
    return this.api.find(`get ${kind.plural}.${kind.group} ${namespace}/${name}`, async () =>
      (await this.custom.getNamespacedCustomObject({ group: kind.group, version: kind.version, plural: kind.plural, namespace, name })) as CustomObject,
    );
  }

  async list(kind: CustomKind, namespace: string): Promise<CustomObject[]> {
    const list = await this.api.call(`list ${kind.plural}.${kind.group} in ${namespace}`, async () =>
      (await this.custom.listNamespacedCustomObject({ group: kind.group, version: kind.version, plural: kind.plural, namespace })) as { items?: CustomObject[] },
    );
    return (list.items ?? []).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  }

  async create(kind: CustomKind, namespace: string, body: CustomObject, dryRun?: boolean): Promise<CustomObject> {
    return this.api.call(`create ${kind.plural}.${kind.group} ${namespace}/${body.metadata.name}`, async () =>
      (await this.custom.createNamespacedCustomObject({ group: kind.group, version: kind.version, plural: kind.plural, namespace, body, ...dryRunOf(dryRun) })) as CustomObject,
    );
  }

  /** Replaces the object; `body.metadata.resourceVersion` makes it conditional (409 when it moved). */
  async replace(kind: CustomKind, namespace: string, body: CustomObject, dryRun?: boolean): Promise<CustomObject> {
    const name = body.metadata.name;
    return this.api.call(`update ${kind.plural}.${kind.group} ${namespace}/${name}`, async () =>
      (await this.custom.replaceNamespacedCustomObject({ group: kind.group, version: kind.version, plural: kind.plural, namespace, name, body, ...dryRunOf(dryRun) })) as CustomObject,
    );
  }

  /** A JSON merge patch (custom resources take no strategic merge patch). */
  async mergePatch(kind: CustomKind, namespace: string, name: string, patch: object, dryRun?: boolean): Promise<CustomObject> {
    return this.api.call(`patch ${kind.plural}.${kind.group} ${namespace}/${name}`, async () =>
      (await this.custom.patchNamespacedCustomObject(
        { group: kind.group, version: kind.version, plural: kind.plural, namespace, name, body: patch, ...dryRunOf(dryRun) },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )) as CustomObject,
    );
  }
}
