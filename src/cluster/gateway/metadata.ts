import { AppsV1Api, CoreV1Api, NetworkingV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1ObjectMeta } from '@kubernetes/client-node';
import { type ApiCaller, dryRunOf } from './call.js';

/** The kinds whose labels and annotations the remedies read and change. */
export type MetaResource = 'deployments' | 'statefulsets' | 'services' | 'configmaps' | 'secrets' | 'serviceaccounts' | 'ingresses';

/** Group and Kind of each, for RBAC and for what the card shows. */
export const metaResources: Record<MetaResource, { readonly apiGroup: string; readonly kind: string }> = {
  deployments: { apiGroup: 'apps', kind: 'Deployment' },
  statefulsets: { apiGroup: 'apps', kind: 'StatefulSet' },
  services: { apiGroup: '', kind: 'Service' },
  configmaps: { apiGroup: '', kind: 'ConfigMap' },
  secrets: { apiGroup: '', kind: 'Secret' },
  serviceaccounts: { apiGroup: '', kind: 'ServiceAccount' },
  ingresses: { apiGroup: 'networking.k8s.io', kind: 'Ingress' },
};

/** An object's identity, labels and annotations, plus the few fields that say what it is for. */
export interface ObjectMetaSummary {
  readonly resource: MetaResource;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  /** Made by a controller (a ReplicaSet's owner, an operator): not the chart's to manage. */
  readonly owned: boolean;
  /** Secrets: their type (service-account tokens and Helm release records are not chart resources). */
  readonly secretType?: string;
  /** Services: the pods they route to. */
  readonly selector?: Record<string, string>;
  /** Ingresses: their class and the services they route to. */
  readonly ingressClass?: string;
  readonly backends?: string[];
}

/** A change of labels and annotations; a null value removes the key (merge patch). */
export interface MetadataPatch {
  readonly labels?: Record<string, string | null>;
  readonly annotations?: Record<string, string | null>;
}

type Listed = { metadata?: V1ObjectMeta };

/** Labels and annotations of the platform's own objects: list and merge-patch them. */
export class MetadataGateway {
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly networking: NetworkingV1Api;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.apps = kubeConfig.makeApiClient(AppsV1Api);
    this.networking = kubeConfig.makeApiClient(NetworkingV1Api);
  }

  async list(resource: MetaResource, namespace: string): Promise<ObjectMetaSummary[]> {
    const items = await this.api.call(`list ${resource} in ${namespace}`, () => this.listRaw(resource, namespace));
    return items.map((o) => this.summarise(resource, o)).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** One Secret's identity, labels and annotations (read by name: no right to list every Secret needed). */
  async getSecret(namespace: string, name: string): Promise<ObjectMetaSummary | undefined> {
    try {
      const o = await this.api.call(`get secret ${namespace}/${name}`, () => this.core.readNamespacedSecret({ namespace, name }));
      return this.summarise('secrets', o);
    } catch (err) {
      if ((err as { code?: string }).code === 'not-found') return undefined;
      throw err;
    }
  }

  /**
   * Merge-patches labels and annotations. The resourceVersion travels in the patch, which the API
   * server treats as a precondition: an object changed since the plan answers 409, nothing applied.
   */
  async patch(resource: MetaResource, namespace: string, name: string, change: MetadataPatch, resourceVersion: string, dryRun?: boolean): Promise<ObjectMetaSummary> {
    const body = { metadata: { resourceVersion, ...change } };
    const params = { namespace, name, body, ...dryRunOf(dryRun) };
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const patched = await this.api.call(`patch ${metaResources[resource].kind.toLowerCase()} ${namespace}/${name}`, (): Promise<Listed> => {
      switch (resource) {
        case 'deployments':
          return this.apps.patchNamespacedDeployment(params, merge);
        case 'statefulsets':
          return this.apps.patchNamespacedStatefulSet(params, merge);
        case 'services':
          return this.core.patchNamespacedService(params, merge);
        case 'configmaps':
          return this.core.patchNamespacedConfigMap(params, merge);
        case 'secrets':
          return this.core.patchNamespacedSecret(params, merge);
        case 'serviceaccounts':
          return this.core.patchNamespacedServiceAccount(params, merge);
        case 'ingresses':
          return this.networking.patchNamespacedIngress(params, merge);
      }
    });
    return this.summarise(resource, patched);
  }

  private async listRaw(resource: MetaResource, namespace: string): Promise<Listed[]> {
    switch (resource) {
      case 'deployments':
        return (await this.apps.listNamespacedDeployment({ namespace })).items;
      case 'statefulsets':
        return (await this.apps.listNamespacedStatefulSet({ namespace })).items;
      case 'services':
        return (await this.core.listNamespacedService({ namespace })).items;
      case 'configmaps':
        return (await this.core.listNamespacedConfigMap({ namespace })).items;
      case 'secrets':
        // Only metadata and type are kept below; values never leave this function.
        return (await this.core.listNamespacedSecret({ namespace })).items;
      case 'serviceaccounts':
        return (await this.core.listNamespacedServiceAccount({ namespace })).items;
      case 'ingresses':
        return (await this.networking.listNamespacedIngress({ namespace })).items;
    }
  }

  private summarise(resource: MetaResource, o: Listed): ObjectMetaSummary {
    const m = o.metadata ?? {};
    const raw = o as { type?: string; spec?: { selector?: Record<string, string>; ingressClassName?: string; rules?: { http?: { paths?: { backend?: { service?: { name?: string } } }[] } }[] } };
    const base = {
      resource,
      kind: metaResources[resource].kind,
      namespace: m.namespace ?? '',
      name: m.name ?? '',
      uid: m.uid ?? '',
      resourceVersion: m.resourceVersion ?? '',
      labels: { ...(m.labels ?? {}) },
      annotations: { ...(m.annotations ?? {}) },
      owned: (m.ownerReferences ?? []).length > 0,
    };
    if (resource === 'secrets') return { ...base, secretType: raw.type ?? 'Opaque' };
    if (resource === 'services') return { ...base, selector: { ...(raw.spec?.selector ?? {}) } };
    if (resource === 'ingresses') {
      const backends = (raw.spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend?.service?.name ?? '')).filter((n) => n !== '');
      const ingressClass = raw.spec?.ingressClassName ?? base.annotations['kubernetes.io/ingress.class'] ?? '';
      return { ...base, ingressClass, backends: [...new Set(backends)] };
    }
    return base;
  }
}
