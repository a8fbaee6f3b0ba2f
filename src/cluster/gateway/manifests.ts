import { ApiextensionsV1Api, BatchV1Api, CoreV1Api, loadYaml, type KubeConfig, type V1CustomResourceDefinition, type V1Job, type V1Secret } from '@kubernetes/client-node';
import { type ApiCaller, dryRunOf } from './call.js';

/** The kinds a fetched manifest may bring that the worker knows how to apply. */
export type ApplicableKind = 'Job' | 'Secret' | 'CustomResourceDefinition';

/** `apiVersion` of each applicable kind; a manifest object of another version is not applied. */
export const applicableKinds: Record<ApplicableKind, { readonly apiVersion: string; readonly apiGroup: string; readonly resource: string; readonly namespaced: boolean }> = {
  Job: { apiVersion: 'batch/v1', apiGroup: 'batch', resource: 'jobs', namespaced: true },
  Secret: { apiVersion: 'v1', apiGroup: '', resource: 'secrets', namespaced: true },
  CustomResourceDefinition: { apiVersion: 'apiextensions.k8s.io/v1', apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', namespaced: false },
};

/** One object of a manifest, as parsed from YAML. */
export interface ManifestObject {
  apiVersion: string;
  kind: ApplicableKind;
  metadata: { name: string; namespace?: string; resourceVersion?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** Identity of an object in the cluster, and a fingerprint of what a manifest sets (to tell "unchanged"). */
export interface ObjectVersion {
  readonly uid: string;
  readonly resourceVersion: string;
  /** Labels, annotations and everything outside metadata and status: equal before and after a dry run means no change. */
  readonly fingerprint: string;
}

type Any = V1Job | V1Secret | V1CustomResourceDefinition;

function version(o: Any): ObjectVersion {
  const { metadata, ...rest } = o as Any & { status?: unknown };
  delete (rest as { status?: unknown }).status;
  const fingerprint = JSON.stringify([metadata?.labels ?? {}, metadata?.annotations ?? {}, rest]);
  return { uid: metadata?.uid ?? '', resourceVersion: metadata?.resourceVersion ?? '', fingerprint };
}

/** Reads, creates and replaces the objects of a manifest (the guide's `kubectl apply`). */
export class ManifestsGateway {
  private readonly core: CoreV1Api;
  private readonly batch: BatchV1Api;
  private readonly crds: ApiextensionsV1Api;
  constructor(
    kubeConfig: KubeConfig,
    private readonly api: ApiCaller,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.batch = kubeConfig.makeApiClient(BatchV1Api);
    this.crds = kubeConfig.makeApiClient(ApiextensionsV1Api);
  }

  private label(verb: string, obj: ManifestObject, namespace: string): string {
    const where = applicableKinds[obj.kind].namespaced ? `${namespace}/${obj.metadata.name}` : obj.metadata.name;
    return `${verb} ${obj.kind.toLowerCase()} ${where}`;
  }

  async read(obj: ManifestObject, namespace: string): Promise<ObjectVersion | undefined> {
    const name = obj.metadata.name;
    const found = await this.api.find(this.label('get', obj, namespace), (): Promise<Any> => {
      switch (obj.kind) {
        case 'Job':
          return this.batch.readNamespacedJob({ namespace, name });
        case 'Secret':
          return this.core.readNamespacedSecret({ namespace, name });
        case 'CustomResourceDefinition':
          return this.crds.readCustomResourceDefinition({ name });
      }
    });
    return found && version(found);
  }

  async create(obj: ManifestObject, namespace: string, dryRun?: boolean): Promise<ObjectVersion> {
    const body = this.placed(obj, namespace);
    const created = await this.api.call(this.label('create', obj, namespace), (): Promise<Any> => {
      switch (obj.kind) {
        case 'Job':
          return this.batch.createNamespacedJob({ namespace, body: body as V1Job, ...dryRunOf(dryRun) });
        case 'Secret':
          return this.core.createNamespacedSecret({ namespace, body: body as V1Secret, ...dryRunOf(dryRun) });
        case 'CustomResourceDefinition':
          return this.crds.createCustomResourceDefinition({ body: body as unknown as V1CustomResourceDefinition, ...dryRunOf(dryRun) });
      }
    });
    return version(created);
  }

  /** Replaces the stored object with the manifest's, conditional on `resourceVersion` (409 when it moved). */
  async replace(obj: ManifestObject, namespace: string, resourceVersion: string, dryRun?: boolean): Promise<ObjectVersion> {
    const body = this.placed(obj, namespace);
    body.metadata.resourceVersion = resourceVersion;
    const name = obj.metadata.name;
    const replaced = await this.api.call(this.label('update', obj, namespace), (): Promise<Any> => {
      switch (obj.kind) {
        case 'Job':
          return this.batch.replaceNamespacedJob({ namespace, name, body: body as V1Job, ...dryRunOf(dryRun) });
        case 'Secret':
          return this.core.replaceNamespacedSecret({ namespace, name, body: body as V1Secret, ...dryRunOf(dryRun) });
        case 'CustomResourceDefinition':
          return this.crds.replaceCustomResourceDefinition({ name, body: body as unknown as V1CustomResourceDefinition, ...dryRunOf(dryRun) });
      }
    });
    return version(replaced);
  }

  /** The text values of a ConfigMap (an admin's own manifests), or undefined when it does not exist. */
  async configMapData(namespace: string, name: string): Promise<{ readonly resourceVersion: string; readonly data: Record<string, string> } | undefined> {
    const found = await this.api.find(`get configmap ${namespace}/${name}`, () => this.core.readNamespacedConfigMap({ namespace, name }));
    return found && { resourceVersion: found.metadata?.resourceVersion ?? '', data: { ...(found.data ?? {}) } };
  }

  /**
   * A copy of the object in the target namespace (cluster-scoped kinds carry none), as the client's
   * model of its kind. The client serialises a body by its model's property names: a plain YAML
   * object's `x-kubernetes-preserve-unknown-fields` (the model's `x_kubernetes_preserve_unknown_fields`)
   * would be silently dropped from a CRD's schema, so the object goes through the client's own
   * deserialiser first (JSON is YAML).
   */
  private placed(obj: ManifestObject, namespace: string): ManifestObject {
    const copy = structuredClone(obj);
    if (applicableKinds[obj.kind].namespaced) copy.metadata.namespace = namespace;
    else delete copy.metadata.namespace;
    return loadYaml<ManifestObject>(JSON.stringify(copy));
  }
}
