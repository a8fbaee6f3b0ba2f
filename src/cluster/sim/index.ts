import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { defaultPlatformNames } from '../../platform-names.js';
import type { PlatformNames } from '../../platform-names.js';
import { Breakage } from './platform/breakage.js';
import { faultAnnotation, faultyPods } from './platform/faults.js';
import { Controllers } from './apiserver/controllers.js';
import { KubeletEvents } from './apiserver/kubelet-events.js';
import type { SimView } from './platform/fault-model.js';
import { kubeconfigYaml, simulatedClusterName } from './apiserver/kubeconfig.js';
import { PlatformComponents } from './platform/platform-components.js';
import { InstalledDashboard, installedMetricsStore } from './platform/dashboard/installed.js';
import { containerSeries } from './platform/dashboard/metrics-store.js';
import { startDashboardServer, type DashboardServer } from './platform/dashboard/server.js';
import { PlatformDatabase, type DatabaseServer } from './platform/database.js';
import { newPassword } from './platform/secret-material.js';
import { meetVersionGate } from './platform/versions.js';
import type { SimPolicy } from './apiserver/rbac.js';
import { findServedKind } from './apiserver/custom-resources.js';
import { kindOf, kinds, resourceKinds } from './apiserver/resources.js';
import type { ResourceKind } from './apiserver/resources.js';
import { Scheduler } from './apiserver/scheduler.js';
import { seedStandardInstall } from './platform/seed.js';
import { matchesLabels, parseLabelSelector } from './apiserver/selectors.js';
import { SimApiServer } from './apiserver/server.js';
import type { RequestRecord, Throttle } from './apiserver/server.js';
import { ObjectStore } from './apiserver/store.js';
import { PodTermination } from './apiserver/termination.js';
import { InformerCache } from './apiserver/informer-cache.js';
import { VolumeResizer } from './apiserver/volume-resizer.js';
import type { ResourceRef } from './apiserver/types.js';
import { seedApplications, withApplications, type ApplicationTroubles, type Applications, type GrownApplications } from './apps/applications.js';

export type { PolicyRule, SimPolicy } from './apiserver/rbac.js';
export type { RequestRecord, Throttle } from './apiserver/server.js';
export type { KubeObject, ObjectMeta, OwnerReference, ResourceRef } from './apiserver/types.js';
export { faultAnnotation, faultEntries } from './platform/faults.js';
export { versionGates } from './platform/versions.js';
export { resourceKinds } from './apiserver/resources.js';
export { localDatabase, type DatabaseServer } from './platform/database.js';
export type { InstalledDashboard } from './platform/dashboard/installed.js';
export { simulatedClusterName } from './apiserver/kubeconfig.js';
export type { Applications, GrownApplications } from './apps/applications.js';

/** How to start a simulated cluster; every field has a default suited to a test. */
export interface SimulatedClusterOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Overrides of the standard install's names. */
  names?: Partial<PlatformNames>;
  /** Between a controlled pod's deletion and its replacement; default 1500 ms. */
  recreateDelayMs?: number;
  /** Between a pod's creation and Running/Ready; default 1000 ms. */
  readyDelayMs?: number;
  /**
   * How long a deleted pod's containers take to stop, so how long it stays Terminating (never longer than
   * its grace period, 30 s unless the pod or the request says otherwise); default `readyDelayMs`.
   */
  podStopMs?: number;
  /** Deleted pods stay Terminating until `holdTermination(false)`, as on a node that does not answer; default false. */
  holdTerminatingPods?: boolean;
  /**
   * How late the API server's admission plugins see a StorageClass change (their informer cache): a claim
   * resized sooner after its class allowed expansion is refused; default 300 ms.
   */
  storageClassCacheLagMs?: number;
  /** Between a claim's larger request and its `status.capacity` showing it (resizer and kubelet); default 20 s. */
  volumeResizeMs?: number;
  /** RBAC for every request; default none (everything allowed, as for a cluster admin). */
  policy?: SimPolicy;
  /** The bearer token clients must send; default random. */
  token?: string;
  /** The installer object's `LTAG=`; default v0.6.29. */
  platformVersion?: string;
  /** Receives one line per request and internal errors; default silent. */
  log?: (line: string) => void;
  /**
   * The platform's PostgreSQL (a real server: entry 16 runs SQL on it); default none, and then entry 16
   * cannot be broken. Its user must get in with the password the platform secret holds (trust on loopback).
   */
  database?: DatabaseServer;
  /**
   * Leaves the simulator's fault annotation out of everything the API serves, as a real cluster would
   * not have it: what a client sees is then only the real signals (states, events, logs). Default false.
   */
  hideMarkers?: boolean;
  /**
   * Grows the cluster to a large install: teams' namespaces with Deployments, Jobs and days of events
   * in the states a busy cluster shows (see Applications). Default none. Call `settle()` before reading
   * their workloads' status.
   */
  applications?: Applications;
}

/** A running in-memory Kubernetes API server holding a standard install of the platform. */
export interface SimulatedCluster {
  /**
   * `http://127.0.0.1:PORT`. The same port also speaks TLS; the kubeconfig uses `https://` on it because
   * kubectl never sends a token over plain HTTP.
   */
  readonly url: string;
  /** `https://127.0.0.1:PORT`, the same port's TLS side: the address the kubeconfig gives kubectl. */
  readonly tlsUrl: string;
  readonly token: string;
  readonly names: PlatformNames;
  /** A kubeconfig whose cluster, user and context are all named `context` (default `simulated`). */
  kubeconfigYaml(context?: string): string;
  writeKubeconfig(path: string): Promise<void>;
  /** A client-node KubeConfig loaded from `kubeconfigYaml()`. */
  kubeConfig(): KubeConfig;
  /**
   * Puts the cluster into the broken state of a guide entry (`sso-login`, `build-logs`, `git-sensor-stuck`).
   * Objects and pods are broken on return; the promise resolves when the database is too (entry 16), and
   * rejects with one line saying how to give the cluster a database when it has none.
   */
  break(entryId: string, options?: Record<string, unknown>): Promise<void>;
  /**
   * Sets the installer's version to one the entry's remedy accepts (entry 26 needs v0.7.1 or later, 5.3 a
   * version below v0.6.9), unless it already does; returns the version set. `--broken` does this first.
   */
  meetVersionGate(entryId: string): string | undefined;
  /** Clears every fault. */
  heal(): void;
  /** Ids of the entries whose symptom is present now: the ground truth for "did the remedy work". */
  symptoms(): string[];
  /** While on, deleted pods stay Terminating (their node does not answer); turning it off lets the held pods go. */
  holdTermination(on: boolean): void;
  /** Replaces the RBAC policy; undefined allows everything. */
  setPolicy(policy: SimPolicy | undefined): void;
  /**
   * Makes the API server refuse its next requests with 429 and a Retry-After, as its flow control does under
   * load (Throttle); undefined ends it.
   */
  throttle(throttle: Throttle | undefined): void;
  /**
   * Copies of stored objects (with kind and apiVersion), optionally filtered by a label selector.
   * The element type defaults to `any` on purpose: tests read arbitrary fields of arbitrary kinds and
   * say what they expect in their own annotations; pass a type (e.g. V1Pod-like or KubeObject) for checking.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  list<T = any>(resource: ResourceRef, namespace?: string, labelSelector?: string): T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  get<T = any>(resource: ResourceRef, namespace: string | undefined, name: string): T | undefined;
  /** Every request served so far, oldest first. */
  requests(): RequestRecord[];
  /** What `applications` added; undefined without it. */
  readonly applications?: GrownApplications;
  /** The platform's metrics dashboard: its HTTP API (served on a port of its own) and its state. */
  readonly dashboard: DashboardServer & { readonly installed: InstalledDashboard };
  /** The platform's PostgreSQL, when one was given. */
  readonly database?: PlatformDatabase;
  /**
   * The cluster keys that make a worker reach this platform's dashboard, dashboard catalogue and
   * database (a cluster's `dashboardUrl`, `dashboardCatalogueUrl`, `databaseHost`, …): its in-cluster
   * addresses do not resolve outside a real cluster.
   */
  readonly addresses: Partial<PlatformNames>;
  /** Resolves when no controller action is pending (pods recreated, Ready, statuses updated). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The kind a test's reference names: a built-in one (a wrong reference is a bug and throws), or a custom
 * one while its CRD is established (none otherwise, so the cluster holds no such objects).
 */
function servedKind(store: ObjectStore, ref: ResourceRef): ResourceKind | undefined {
  const served = findServedKind(store, ref.group, ref.version, ref.plural);
  if (!served && resourceKinds.some((k) => k.group === ref.group)) kindOf(ref);
  return served;
}

export async function startSimulatedCluster(opts: SimulatedClusterOptions = {}): Promise<SimulatedCluster> {
  const names: PlatformNames = { ...defaultPlatformNames, ...(opts.names ?? {}) };
  const token = opts.token ?? randomBytes(24).toString('hex');
  let policy = opts.policy;
  const store = new ObjectStore();
  const scheduler = new Scheduler((error) => opts.log?.(`controller error: ${String(error)}`));
  const broken = new Map<string, unknown>();
  const timings = { recreateDelayMs: opts.recreateDelayMs ?? 1500, readyDelayMs: opts.readyDelayMs ?? 1000 };
  // The pods' runtime reads the platform's state, which exists once the standard install is seeded.
  const world: { view?: SimView } = {};
  const appTroubles: ApplicationTroubles = new Map();
  const pods = withApplications(faultyPods(() => world.view, broken), appTroubles);
  const termination = { stopMs: opts.podStopMs ?? timings.readyDelayMs, hold: opts.holdTerminatingPods ?? false };
  const terminating = new PodTermination(store, scheduler, termination);
  const controllers = new Controllers(store, scheduler, timings, pods, terminating);
  const classes = new InformerCache(store, kinds.storageClass, scheduler, () => opts.storageClassCacheLagMs ?? 300);
  const resizer = new VolumeResizer(store, scheduler, () => opts.volumeResizeMs ?? 20_000);
  const passwords = { dashboardPassword: newPassword(), databasePassword: newPassword() };
  seedStandardInstall(store, controllers, { names, platformVersion: opts.platformVersion ?? 'v0.6.29', ...passwords });
  const applications = opts.applications ? seedApplications(store, controllers, appTroubles, opts.applications) : undefined;
  const installed = new InstalledDashboard(names);
  const components = new PlatformComponents(store, scheduler, timings, names, installed);
  const database = opts.database ? new PlatformDatabase(opts.database, passwords.databasePassword) : undefined;
  const view: SimView = { store, names, dashboard: installed, ...(database ? { database } : {}) };
  world.view = view;
  const breakage = new Breakage(view, broken);
  const kubeletEvents = new KubeletEvents(store, pods);
  const dashboard = await startDashboardServer({
    host: opts.host ?? '127.0.0.1',
    user: names.dashboardUser,
    password: passwords.dashboardPassword,
    state: installed.state,
    metrics: { url: installedMetricsStore, series: () => containerSeries(store.list(kinds.pod)) },
  });
  const server = new SimApiServer({
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    token,
    store,
    policy: () => policy,
    pods,
    termination: terminating,
    admission: { storageClass: (name) => classes.get(undefined, name) },
    log: opts.log,
    ...(opts.hideMarkers ? { hiddenAnnotations: [faultAnnotation] } : {}),
  });
  const urls = await server.listen().catch(async (error: unknown) => {
    await dashboard.close();
    throw error;
  });
  const url = urls.http;
  const yaml = (context = simulatedClusterName) => kubeconfigYaml(urls.https, server.certificatePem, token, context, names.platformNamespace);
  let closed = false;

  const addresses: Partial<PlatformNames> = {
    dashboardUrl: dashboard.url,
    dashboardCatalogueUrl: dashboard.catalogueUrl,
    ...(opts.database ? { databaseHost: opts.database.host, databasePort: opts.database.port, databaseUser: opts.database.user } : {}),
  };

  return {
    url,
    tlsUrl: urls.https,
    token,
    names,
    dashboard: Object.assign(dashboard, { installed }),
    ...(database ? { database } : {}),
    addresses,
    ...(applications ? { applications } : {}),
    kubeconfigYaml: yaml,
    async writeKubeconfig(path) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, yaml(), { mode: 0o600 });
    },
    kubeConfig() {
      const kc = new KubeConfig();
      kc.loadFromString(yaml());
      return kc;
    },
    break: (entryId, options) => breakage.break(entryId, options),
    meetVersionGate: (entryId) => meetVersionGate(store, names, entryId),
    heal: () => breakage.heal(),
    symptoms: () => breakage.symptoms(),
    holdTermination(on) {
      termination.hold = on;
      if (!on) terminating.release();
    },
    setPolicy(next) {
      policy = next;
    },
    throttle: (t) => server.throttle(t),
    list<T>(resource: ResourceRef, namespace?: string, labelSelector?: string): T[] {
      const selector = parseLabelSelector(labelSelector);
      const kind = servedKind(store, resource);
      return kind ? (store.list(kind, namespace, (o) => matchesLabels(selector, o.metadata.labels)) as T[]) : [];
    },
    get<T>(resource: ResourceRef, namespace: string | undefined, name: string): T | undefined {
      const kind = servedKind(store, resource);
      return kind ? (store.get(kind, namespace, name) as T | undefined) : undefined;
    },
    requests: () => server.records.map((r) => ({ ...r })),
    settle: () => scheduler.settle(),
    async close() {
      if (closed) return;
      closed = true;
      scheduler.close();
      controllers.stop();
      classes.stop();
      resizer.stop();
      components.stop();
      kubeletEvents.stop();
      await Promise.all([server.close(), dashboard.close(), database?.close()]);
    },
  };
}
