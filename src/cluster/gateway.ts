import type { KubeConfig } from '@kubernetes/client-node';
import { ApiCaller } from './gateway/call.js';
import { CustomGateway } from './gateway/custom.js';
import { JobsGateway } from './gateway/jobs.js';
import { ManifestsGateway } from './gateway/manifests.js';
import { MetadataGateway } from './gateway/metadata.js';
import { ObserveGateway } from './gateway/observe.js';
import { ObserveObjects } from './gateway/observe-objects.js';
import { PodsGateway, type PodSummary } from './gateway/pods.js';
import { SecretsGateway, type SecretData } from './gateway/secrets.js';
import { StorageGateway } from './gateway/storage.js';
import { WorkloadsGateway } from './gateway/workloads.js';

export type { PodSummary } from './gateway/pods.js';
export type { JobSummary } from './gateway/jobs.js';
export type { SecretData } from './gateway/secrets.js';
export type { ContainerImage, StatefulSetImages } from './gateway/workloads.js';
export type { ClaimSize, StorageClassExpansion } from './gateway/storage.js';
export type { MetaResource, MetadataPatch, ObjectMetaSummary } from './gateway/metadata.js';
export { metaResources } from './gateway/metadata.js';
export type { CustomKind, CustomObject } from './gateway/custom.js';
export type { CertificateDates, ContainerState, EventRecord, JobState, PodState } from './gateway/observe.js';
export type { BackendConfigState, CrdState, DeploymentState, IngressState, ServerVersion, ServiceState } from './gateway/observe-objects.js';
export { customKinds } from './gateway/custom.js';
export type { ApplicableKind, ManifestObject, ObjectVersion } from './gateway/manifests.js';
export { applicableKinds } from './gateway/manifests.js';

/** Options of the gateway. */
export interface GatewayOptions {
  /** Longest wait for one API call before it is reported as timed out. Default 15 s. */
  readonly callTimeoutMs?: number;
}

/**
 * The kubeconfig, whose every request is aborted once the call's deadline has passed. The caller's deadline
 * only stops waiting: a request to a server that never answers kept its connection open, and with it the
 * process (`platform-medic doctor` printed its answer, then never ended). Every client the gateway makes
 * authenticates each request through its kubeconfig, the one place that sees them all.
 */
function abortedAfter(kubeConfig: KubeConfig, timeoutMs: number): KubeConfig {
  const timed = Object.create(kubeConfig) as KubeConfig;
  timed.applySecurityAuthentication = async (context) => {
    await kubeConfig.applySecurityAuthentication(context);
    context.setSignal(AbortSignal.timeout(timeoutMs));
  };
  return timed;
}

/**
 * The typed gateway over the Kubernetes client: the only place that calls client-node (through the
 * modules of ./gateway/), so every call gets a timeout and every failure becomes a ClusterError with
 * a message a person can act on. One field per area of the API the remedies use.
 */
export class ClusterGateway {
  readonly pods: PodsGateway;
  readonly jobs: JobsGateway;
  readonly secrets: SecretsGateway;
  readonly workloads: WorkloadsGateway;
  readonly storage: StorageGateway;
  readonly metadata: MetadataGateway;
  readonly custom: CustomGateway;
  readonly manifests: ManifestsGateway;
  /** The doctor's reads: whole lists, warning events, log tails, certificate dates. */
  readonly observe: ObserveGateway;
  /** The doctor's reads of workloads, their exposure and the server's version. */
  readonly observeObjects: ObserveObjects;

  constructor(given: KubeConfig, options: GatewayOptions = {}) {
    const server = given.getCurrentCluster()?.server ?? '(no server in kubeconfig)';
    const timeoutMs = options.callTimeoutMs ?? 15_000;
    const api = new ApiCaller(server, timeoutMs);
    const kubeConfig = abortedAfter(given, timeoutMs);
    this.pods = new PodsGateway(kubeConfig, api);
    this.jobs = new JobsGateway(kubeConfig, api);
    this.secrets = new SecretsGateway(kubeConfig, api);
    this.workloads = new WorkloadsGateway(kubeConfig, api);
    this.storage = new StorageGateway(kubeConfig, api);
    this.metadata = new MetadataGateway(kubeConfig, api);
    this.custom = new CustomGateway(kubeConfig, api);
    this.manifests = new ManifestsGateway(kubeConfig, api);
    this.observe = new ObserveGateway(kubeConfig, api);
    this.observeObjects = new ObserveObjects(kubeConfig, api);
  }

  /** Pods of a namespace, optionally by label selector, oldest first. */
  listPods(namespace: string, labelSelector?: string): Promise<PodSummary[]> {
    return this.pods.list(namespace, labelSelector);
  }

  /** One pod, or undefined when it does not exist. */
  getPod(namespace: string, name: string): Promise<PodSummary | undefined> {
    return this.pods.get(namespace, name);
  }

  /** A secret's keys and base64 values; callers must never log, report or store a value. */
  readSecret(namespace: string, name: string): Promise<SecretData | undefined> {
    return this.secrets.read(namespace, name);
  }

  /** Deletes exactly the pod of that uid; 'gone' when it no longer exists. */
  deletePod(namespace: string, name: string, uid: string): Promise<'deleted' | 'gone'> {
    return this.pods.delete(namespace, name, uid);
  }
}
