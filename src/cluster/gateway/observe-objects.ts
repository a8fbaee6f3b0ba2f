import { AppsV1Api, CoreV1Api, CustomObjectsApi, NetworkingV1Api, VersionApi, type KubeConfig, type V1Deployment, type V1Ingress, type V1Service } from '@kubernetes/client-node';
import type { ApiCaller } from './call.js';
import { customKinds } from './custom.js';

/*
 * The doctor's reads of workloads and their exposure: deployments (their containers' images and args,
 * ready replicas), ingresses and services (class, backends, and only the annotations the guide's
 * entries are about), BackendConfigs' timeouts, and the server's version. Nothing else of these objects
 * leaves the gateway (annotations may carry anything, e.g. a last-applied configuration).
 */

/** The annotations the doctor reads; every other annotation is dropped here. */
export const observedAnnotations = ['nginx.ingress.kubernetes.io/proxy-body-size', 'kubernetes.io/ingress.class', 'cloud.google.com/backend-config'] as const;

export interface DeploymentState {
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly replicas: number;
  readonly readyReplicas: number;
  readonly containers: readonly { readonly name: string; readonly image: string; readonly args: readonly string[] }[];
}

export interface IngressState {
  readonly namespace: string;
  readonly name: string;
  /** `spec.ingressClassName`, else the older class annotation. */
  readonly className?: string;
  readonly annotations: Readonly<Record<string, string>>;
  readonly backendServices: readonly string[];
}

export interface ServiceState {
  readonly namespace: string;
  readonly name: string;
  /** The pods it routes to. */
  readonly selector: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

export interface BackendConfigState {
  readonly namespace: string;
  readonly name: string;
  readonly timeoutSec?: number;
}

export interface ServerVersion {
  readonly gitVersion: string;
  readonly major: number;
  readonly minor: number;
}

function kept(annotations: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of observedAnnotations) if (annotations?.[key] !== undefined) out[key] = annotations[key];
  return out;
}

function deploymentState(d: V1Deployment): DeploymentState {
  return {
    namespace: d.metadata?.namespace ?? '',
    name: d.metadata?.name ?? '',
    labels: { ...(d.metadata?.labels ?? {}) },
    replicas: d.spec?.replicas ?? 1,
    readyReplicas: d.status?.readyReplicas ?? 0,
    containers: (d.spec?.template.spec?.containers ?? []).map((c) => ({ name: c.name, image: c.image ?? '', args: [...(c.args ?? [])] })),
  };
}

function ingressState(i: V1Ingress): IngressState {
  const className = i.spec?.ingressClassName ?? i.metadata?.annotations?.['kubernetes.io/ingress.class'];
  const services = (i.spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend.service?.name ?? ''));
  if (i.spec?.defaultBackend?.service?.name) services.push(i.spec.defaultBackend.service.name);
  return {
    namespace: i.metadata?.namespace ?? '',
    name: i.metadata?.name ?? '',
    ...(className ? { className } : {}),
    annotations: kept(i.metadata?.annotations),
    backendServices: [...new Set(services.filter((s) => s !== ''))],
  };
}

const serviceState = (s: V1Service): ServiceState => ({ namespace: s.metadata?.namespace ?? '', name: s.metadata?.name ?? '', selector: { ...(s.spec?.selector ?? {}) }, annotations: kept(s.metadata?.annotations) });

const where = (namespace: string | undefined) => (namespace === undefined ? 'in all namespaces' : `in ${namespace}`);

/** One call per list; `namespace` undefined lists the whole cluster. */
export class ObserveObjects {
  private readonly apps: AppsV1Api;
  private readonly networking: NetworkingV1Api;
  private readonly core: CoreV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly version: VersionApi;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.apps = kubeConfig.makeApiClient(AppsV1Api);
    this.networking = kubeConfig.makeApiClient(NetworkingV1Api);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.version = kubeConfig.makeApiClient(VersionApi);
  }

  async deployments(namespace?: string): Promise<DeploymentState[]> {
    const list = await this.api.call(`list deployments ${where(namespace)}`, () => (namespace === undefined ? this.apps.listDeploymentForAllNamespaces() : this.apps.listNamespacedDeployment({ namespace })));
    return list.items.map(deploymentState);
  }

  async ingresses(namespace?: string): Promise<IngressState[]> {
    const list = await this.api.call(`list ingresses ${where(namespace)}`, () => (namespace === undefined ? this.networking.listIngressForAllNamespaces() : this.networking.listNamespacedIngress({ namespace })));
    return list.items.map(ingressState);
  }

  async services(namespace?: string): Promise<ServiceState[]> {
    const list = await this.api.call(`list services ${where(namespace)}`, () => (namespace === undefined ? this.core.listServiceForAllNamespaces() : this.core.listNamespacedService({ namespace })));
    return list.items.map(serviceState);
  }

  /** BackendConfigs and their timeouts; undefined when the kind is not installed (no GKE ingress controller). */
  async backendConfigs(namespace?: string): Promise<BackendConfigState[] | undefined> {
    const kind = customKinds.backendConfig;
    const base = { group: kind.group, version: kind.version, plural: kind.plural };
    const list = (await this.api.find(`list ${kind.plural}.${kind.group} ${where(namespace)}`, async () =>
      (namespace === undefined ? await this.custom.listClusterCustomObject(base) : await this.custom.listNamespacedCustomObject({ ...base, namespace })) as {
        items?: Array<{ metadata?: { namespace?: string; name?: string }; spec?: { timeoutSec?: unknown } }>;
      },
    )) as { items?: Array<{ metadata?: { namespace?: string; name?: string }; spec?: { timeoutSec?: unknown } }> } | undefined;
    if (!list) return undefined;
    return (list.items ?? []).map((o) => ({
      namespace: o.metadata?.namespace ?? '',
      name: o.metadata?.name ?? '',
      ...(typeof o.spec?.timeoutSec === 'number' ? { timeoutSec: o.spec.timeoutSec } : {}),
    }));
  }

  /** The API server's version (`/version`, readable by any authenticated client). */
  async serverVersion(): Promise<ServerVersion> {
    const info = await this.api.call('get the server version', () => this.version.getCode());
    return { gitVersion: info.gitVersion, major: Number.parseInt(info.major, 10), minor: Number.parseInt(info.minor, 10) };
  }
}
