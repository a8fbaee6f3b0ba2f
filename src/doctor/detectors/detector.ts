import type { z } from 'zod';
import type { BackendConfigState, CertificateDates, CrdState, CustomObject, DeploymentState, EventRecord, IngressState, JobState, PodState, ServerVersion, ServiceState } from '../../cluster/gateway.js';
import type { LabelName, NamespaceName, PlatformNames } from '../../platform-names.js';
import type { DashboardModel, DataSource, Org, SearchHit } from '../../remedies/dashboard/api.js';
import { platformSecretPermission } from '../../remedies/steps/secret-key.js';
import type { ObjectName, Permission } from '../../remedies/steps/step.js';

/**
 * The vocabulary detectors are written in. A detector is a declared, read-only check of one entry's
 * symptom: it names what it reads (the scan reads each thing once for every detector and hands them a
 * snapshot), and judges from that snapshot alone. It never calls the cluster itself.
 */

/** Where a list is read: one of the platform's namespaces, or every namespace in one call. */
export type ListScope = NamespaceName | 'cluster';

/** The custom resource definitions a detector may read, by name. */
export type ObservedCrd = 'rollouts.argoproj.io';

/** The custom kinds a detector may list. */
export type ObservedCustomKind = 'rollout';

/** The pods whose logs a detector reads: by one of the platform's labels, or by a pod's name. */
export type LogSource = { readonly label: LabelName } | { readonly pod: 'databasePod' | 'gitSensorPod' };

/** One thing a detector reads. Logs are read only in the platform's namespaces, and only their tails. */
/** The kinds a detector may list (besides custom kinds). */
export type ListedKind = 'pods' | 'jobs' | 'warnings' | 'deployments' | 'ingresses' | 'services' | 'backendconfigs';

/**
 * What a detector reads of the metrics dashboard, through its HTTP API as the platform's admin user
 * (the password from the platform secret): its organisations, and of the organisation App Details
 * reads (id 2) the data sources, the dashboards, one dashboard's model by uid, and how many series its
 * default data source holds for a selector (a `count()` through the dashboard's data source proxy).
 */
export type DashboardRead =
  | { readonly dashboard: 'organisations' | 'dataSources' | 'dashboards' }
  | { readonly dashboard: 'model'; readonly uid: string }
  | { readonly dashboard: 'seriesCount'; readonly selector: string };

export type Read =
  | { readonly list: ListedKind; readonly in: ListScope }
  | DashboardRead
  /** The platform database's sessions per database, from pg_stat_activity (the password from the platform secret). */
  | { readonly database: 'sessions' }
  | { readonly serverVersion: true }
  | { readonly crd: ObservedCrd }
  | { readonly list: 'custom'; readonly custom: ObservedCustomKind; readonly in: ListScope }
  | { readonly certificate: ObjectName; readonly in: NamespaceName; readonly key: string }
  | { readonly logs: LogSource; readonly in: NamespaceName; readonly tailLines: number };

/** A database of the platform's PostgreSQL and the sessions open on it (the scan's own excepted). */
export interface DatabaseSessions {
  readonly database: string;
  readonly sessions: number;
  /** The sessions' application names (pg_stat_activity.application_name), a few, without empty ones. */
  readonly applications: readonly string[];
}

/** One piece of evidence: the object (`job/devtroncd/postgresql-migrate-devtron`) and what it shows, short. */
export interface Evidence {
  readonly object: string;
  readonly detail: string;
}

/** Why a detector could not tell. */
export type UnknownReason = 'forbidden' | 'unreachable' | 'not-installed' | 'error';

/**
 * Values of the entry's fix parameters that the evidence shows (`{ database: 'orders_old' }`), by the
 * parameter's name: the fix line offered with the finding carries them, so it can be typed as shown.
 */
export type SeenParams = Readonly<Record<string, string>>;

/** What a detector concludes. */
export type Verdict =
  | { readonly state: 'present' | 'absent'; readonly evidence: readonly Evidence[]; readonly fixParams?: SeenParams }
  | { readonly state: 'unknown'; readonly reason: UnknownReason; readonly message: string }
  | { readonly state: 'not-observable'; readonly check: string };

/** A pod's log lines as read: the tail of each of its containers. */
export interface LogTail {
  readonly pod: PodState;
  readonly container: string;
  readonly lines: readonly string[];
}

/**
 * What a detector sees: the results of the reads it declared, shared with every other detector. A
 * read that failed throws `Unreadable` (the scan turns it into `unknown`); a read the detector did not
 * declare throws an Error (a bug in the detector's declaration).
 */
export interface Snapshot {
  readonly names: PlatformNames;
  readonly now: Date;
  pods(scope: ListScope): readonly PodState[];
  jobs(scope: ListScope): readonly JobState[];
  warnings(scope: ListScope): readonly EventRecord[];
  /** Undefined when the kind is not installed. */
  custom(kind: ObservedCustomKind, scope: ListScope): readonly CustomObject[] | undefined;
  /** Undefined when the secret or key is absent; `unreadable` when it holds no certificate. */
  certificate(name: ObjectName, namespace: NamespaceName, key: string): CertificateDates | 'unreadable' | undefined;
  logs(source: LogSource, namespace: NamespaceName): readonly LogTail[];
  deployments(scope: ListScope): readonly DeploymentState[];
  ingresses(scope: ListScope): readonly IngressState[];
  services(scope: ListScope): readonly ServiceState[];
  /** Undefined when the kind is not installed. */
  backendConfigs(scope: ListScope): readonly BackendConfigState[] | undefined;
  serverVersion(): ServerVersion;
  /** Undefined when the definition is not installed. */
  crd(name: ObservedCrd): CrdState | undefined;
  /** The dashboard's organisations. */
  dashboardOrgs(): readonly Org[];
  /** The data sources of App Details' organisation (id 2); undefined when it does not exist. */
  dashboardDataSources(): readonly DataSource[] | undefined;
  /** The dashboards of App Details' organisation; undefined when it does not exist. */
  dashboards(): readonly SearchHit[] | undefined;
  /** A dashboard of App Details' organisation by uid; undefined when it (or the organisation) does not exist. */
  dashboardModel(uid: string): DashboardModel | undefined;
  /**
   * The series App Details' default data source holds for the selector; Unreadable when the organisation
   * or its default data source is missing, or the metrics store does not answer.
   */
  seriesCount(selector: string): number;
  /** Every database that accepts connections, with its sessions. */
  databaseSessions(): readonly DatabaseSessions[];
}

/** A read that did not answer; the detector's verdict becomes `unknown` with this reason. */
export class Unreadable extends Error {
  constructor(
    readonly reason: UnknownReason,
    message: string,
  ) {
    super(message);
    this.name = 'Unreadable';
  }
}

/** What every detector says about itself, whatever its kind. */
export interface DetectorBase {
  readonly kind: string;
}

/** One kind of detector as its file declares it. */
export interface DetectorDeclaration<D extends DetectorBase> {
  readonly kind: D['kind'];
  /** A detector of this kind as the catalogue writes it; checked against this schema. */
  readonly detector: z.ZodType<D>;
  /** What it reads; its permissions follow from these. */
  reads(detector: D): Read[];
  /** Judges from the snapshot alone. */
  detect(detector: D, snapshot: Snapshot): Verdict;
  /** The entry's fix parameters its verdicts may give values for (`fixParams`); the catalogue's entry must declare each. */
  fixParams?(detector: D): string[];
}

/** One kind of detector as the registry holds it. */
export interface DetectorKind<D extends DetectorBase> extends DetectorDeclaration<D> {
  permissions(detector: D): Permission[];
}

export type DetectorOf<T> = T extends DetectorKind<infer D> ? D : never;

/** The API group and resource a list reads. */
const listed = {
  pods: ['', 'pods'],
  jobs: ['batch', 'jobs'],
  warnings: ['', 'events'],
  custom: ['argoproj.io', 'rollouts'],
  deployments: ['apps', 'deployments'],
  ingresses: ['networking.k8s.io', 'ingresses'],
  services: ['', 'services'],
  backendconfigs: ['cloud.google.com', 'backendconfigs'],
} as const;

/**
 * The Kubernetes permissions behind a read: lists by namespace (or cluster-wide), secrets only by
 * name, logs only in a platform namespace (the pods are found through a list of that namespace); the
 * server's version needs none.
 */
export function permissionsOfRead(read: Read): Permission[] {
  // /version is readable by every authenticated client (the system:public-info-viewer role).
  if ('serverVersion' in read) return [];
  // The dashboard's and the database's passwords: `get` on the platform secret, by name only.
  if ('dashboard' in read || 'database' in read) return [platformSecretPermission];
  if ('crd' in read) return [{ apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', verbs: ['get'], scope: 'cluster', resourceNames: [{ literal: read.crd }] }];
  if ('list' in read) {
    const [apiGroup, resource] = listed[read.list];
    return [{ apiGroup, resource, verbs: ['list'], scope: read.in }];
  }
  if ('certificate' in read) return [{ apiGroup: '', resource: 'secrets', verbs: ['get'], scope: read.in, resourceNames: [read.certificate] }];
  return [
    { apiGroup: '', resource: 'pods', verbs: ['list'], scope: read.in },
    { apiGroup: '', resource: 'pods/log', verbs: ['get'], scope: read.in },
  ];
}

/** Declares a detector kind; its permissions are those of its reads. */
export function defineDetector<D extends DetectorBase>(declared: DetectorDeclaration<D>): DetectorKind<D> {
  return { ...declared, permissions: (d) => declared.reads(d).flatMap(permissionsOfRead) };
}

/** `kubectl`-like short object names for evidence. */
export const objectName = (kind: string, namespace: string, name: string): string => `${kind}/${namespace}/${name}`;

/** How long ago, compactly: 45s, 12m, 3h, 2d. */
export function ago(at: string, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(at)) / 1000));
  if (!Number.isFinite(s)) return '?';
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  if (s < 172_800) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86_400)}d`;
}

/** Whether a pod carries every `key=value` of a label selector as the platform names write them. */
export function hasLabels(pod: PodState, selector: string): boolean {
  return selector
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .every((p) => {
      const [k, v] = p.split('=', 2) as [string, string | undefined];
      return v === undefined ? Object.hasOwn(pod.labels, k) : pod.labels[k] === v;
    });
}
