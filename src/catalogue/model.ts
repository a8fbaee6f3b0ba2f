import type { LabelName, NamespaceName } from '../platform-names.js';

/**
 * The catalogue model: every entry of the guide (section 7's symptoms, section 5's procedures) is one
 * typed, declarative definition. RBAC, help text and the approval card are derived from it.
 */

/** Where an entry stands in the guide: section 7 entry 4 is `7.4`, section 5 procedure 2 is `5.2`. */
export type GuideRef = `${5 | 7}.${number}`;

/** How much a step can disturb the platform; it decides whether a person must approve it. */
export type Risk = 'read-only' | 'restart' | 'destructive';

/**
 * Who must approve a step before it runs: nobody, any configured approver, or an approver other than
 * the person who asked (two-person rule).
 */
export type ApprovalNeed = 'none' | 'approver' | 'second-person';

/** The Kubernetes verbs a step may need. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

/** Where a permission applies: a namespace named by the cluster's platform names, or the whole cluster. */
export type PermissionScope = NamespaceName | 'cluster';

/** One Kubernetes permission a step needs; the worker's RBAC is the union of these. */
export interface Permission {
  readonly apiGroup: string;
  readonly resource: string;
  readonly verbs: readonly Verb[];
  readonly scope: PermissionScope;
  /**
   * When the step only ever touches these named objects (get, patch, update, delete), the RBAC rule is
   * limited to them. Never used with list, watch or create, which RBAC cannot limit by name.
   */
  readonly resourceNames?: readonly (ObjectName | { readonly literal: string })[];
}

/** A platform name that names one object, for RBAC rules limited by resourceNames. */
export type ObjectName = 'platformSecret' | 'gitopsSecret' | 'databaseStatefulSet' | 'gitSensorClaim' | 'installerName' | 'manifestConfigMap';

/** A platform name that is one pod, or a list of pods (the message brokers). */
export type PodName = 'gitSensorPod' | 'databasePod' | 'brokerPods';

/** Pods chosen by label selector, by name, or by state (crash-looping), in one of the platform's namespaces. */
export type PodTarget =
  | { readonly by: 'label'; readonly namespace: NamespaceName; readonly label: LabelName }
  | { readonly by: 'name'; readonly namespace: NamespaceName; readonly pod: PodName }
  | { readonly by: 'crash-looping'; readonly namespace: NamespaceName };

/** What every step says about itself. */
interface StepBase {
  /** What the step does, in the guide's words; shown on the approval card. */
  readonly does: string;
  readonly risk: Risk;
  /** Defaults from risk: read-only → none, restart → approver, destructive → second-person. */
  readonly approval?: ApprovalNeed;
}

/** Read-only: list pods (newest first), e.g. the build pods of the CI namespace. Runs while planning. */
export interface ListPodsStep extends StepBase {
  readonly kind: 'listPods';
  readonly risk: 'read-only';
  readonly namespace: NamespaceName;
  readonly label?: LabelName;
  /** How many of the newest pods to show. */
  readonly newest: number;
  /** What the person reading the list should look for. */
  readonly lookFor: string;
}

/** Delete pods so that their controller recreates them; verified by replacements Ready with new uids. */
export interface DeletePodsStep extends StepBase {
  readonly kind: 'deletePods';
  readonly targets: readonly PodTarget[];
  /** How long the replacements may take to become Ready before the step is reported failed. */
  readonly verifyWithinSeconds: number;
}

/** A wait of the guide ("wait 5 minutes"): a delayed continuation of the run, never a sleeping worker. */
export interface WaitStep extends StepBase {
  readonly kind: 'wait';
  readonly risk: 'read-only';
  readonly minutes: number;
  readonly reason: string;
}

/** Something only a person can do (in a browser, a dashboard, a cloud console): a checklist. */
export interface ManualStep extends StepBase {
  readonly kind: 'manual';
  readonly risk: 'read-only';
  readonly items: readonly string[];
}

/** Entry 1: installer jobs at 0/1 completions whose pods are not running, deleted (pods with them). */
export interface DeleteFailedJobsStep extends StepBase {
  readonly kind: 'deleteFailedJobs';
  readonly namespace: NamespaceName;
}

/** A manifest the guide applies from {manifest_url}. */
export type ManifestName = 'migrator' | 'rollout';

/** Entries 1 and 2: apply a manifest of the installed platform version (bundled, an admin's ConfigMap or a mirror), leaving named objects out. */
export interface ApplyManifestStep extends StepBase {
  readonly kind: 'applyManifest';
  readonly manifest: ManifestName;
  readonly namespace: NamespaceName;
  /** Objects of the manifest that must not be applied, e.g. the database-migrator secret. */
  readonly exclude: readonly { readonly kind: string; readonly nameContains: string }[];
}

/** Entry 9: set the images of a stateful set's init container and container. */
export interface PatchStatefulSetImagesStep extends StepBase {
  readonly kind: 'patchStatefulSetImages';
  readonly statefulSet: 'databaseStatefulSet';
  readonly images: readonly { readonly container: 'databaseInitContainer' | 'databaseContainer'; readonly image: string }[];
}

/** Entry 24: make the claim's storage class allow expansion (its own approved step). */
export interface AllowVolumeExpansionStep extends StepBase {
  readonly kind: 'allowVolumeExpansion';
  readonly claim: 'gitSensorClaim';
}

/** Entry 24: raise a claim's requested storage, after checking its storage class allows expansion. */
export interface GrowClaimStep extends StepBase {
  readonly kind: 'growClaim';
  readonly claim: 'gitSensorClaim';
  /** The parameter that holds the new size, e.g. `size` = `20Gi`. */
  readonly sizeParam: string;
}

/** Sections 5.2, 5.3 and entry 22: remove keys from a secret, after saving it as a timestamped backup. */
export interface RemoveSecretKeysStep extends StepBase {
  readonly kind: 'removeSecretKeys';
  readonly secret: 'platformSecret' | 'gitopsSecret';
  readonly keys: readonly string[];
}

/** Entries 12 and 21: set annotations on an ingress or a service of the platform. */
export interface AnnotateStep extends StepBase {
  readonly kind: 'annotate';
  readonly resource: 'ingresses' | 'services';
  readonly namespace: NamespaceName;
  /** Which object: by the main label's app name, e.g. the platform's ingress and service. */
  readonly select: 'platform';
  /** Annotation → value; `{param}` names a parameter of the entry. */
  readonly annotations: Readonly<Record<string, string | { readonly param: string; readonly template?: string }>>;
}

/** Entry 21: create the cloud load balancer's backend configuration with a longer timeoutSec. */
export interface CreateBackendConfigStep extends StepBase {
  readonly kind: 'createBackendConfig';
  readonly namespace: NamespaceName;
  readonly nameParam: string;
  readonly timeoutParam: string;
}

/** Entry 25: check the last-applied-configuration JSON of the rollouts; repair only when unambiguous. */
export interface CheckLastAppliedStep extends StepBase {
  readonly kind: 'checkLastAppliedJson';
}

/** Read the platform version from the installer object; gate what follows (sections 5 and 9). */
export interface CheckVersionStep extends StepBase {
  readonly kind: 'checkVersion';
  readonly risk: 'read-only';
  readonly atLeast?: string;
  readonly below?: string;
  readonly why: string;
}

/**
 * Sections 5.1 and entry 17: read a key of a secret (the key chosen by the platform version) and show
 * it only as an ephemeral message to an authorised user. Never logged, never in job data.
 */
export interface RevealSecretStep extends StepBase {
  readonly kind: 'revealSecret';
  readonly risk: 'read-only';
  readonly secret: 'platformSecret';
  /** Key from v0.6.9 on, and before it (section 5.1). */
  readonly key: { readonly fromV069: string; readonly before: string };
}

/** Entry 5: the dashboard organisation repair, as HTTP calls made by the worker inside the cluster. */
export interface DashboardOrgRepairStep extends StepBase {
  readonly kind: 'dashboardOrgRepair';
  readonly metricsStoreParam: string;
}

/** Entry 11: remove the `image!=''` filter from the CPU panels' queries of the dashboards. */
export interface DashboardCpuFilterStep extends StepBase {
  readonly kind: 'dashboardRemoveCpuFilter';
}

/** Entry 16: end the sessions on a database, then drop it. */
export interface DropDatabaseStep extends StepBase {
  readonly kind: 'dropDatabase';
  readonly databaseParam: string;
}

/** Entry 18: label and annotate the platform namespace's resources for the chart manager. */
export interface LabelForChartManagerStep extends StepBase {
  readonly kind: 'labelForChartManager';
  readonly namespace: NamespaceName;
}

/** One step of a remedy. */
export type Step =
  | ListPodsStep
  | DeletePodsStep
  | WaitStep
  | ManualStep
  | DeleteFailedJobsStep
  | ApplyManifestStep
  | PatchStatefulSetImagesStep
  | AllowVolumeExpansionStep
  | GrowClaimStep
  | RemoveSecretKeysStep
  | AnnotateStep
  | CreateBackendConfigStep
  | CheckLastAppliedStep
  | CheckVersionStep
  | RevealSecretStep
  | DashboardOrgRepairStep
  | DashboardCpuFilterStep
  | DropDatabaseStep
  | LabelForChartManagerStep;

/** The kinds of step the catalogue knows. */
export type StepKind = Step['kind'];

/** Where a decision leads: another stage, or the end of the remedy. */
export type DecisionOutcome =
  | { readonly stage: string }
  | { readonly end: 'resolved' | 'not-resolved'; readonly message: string };

/** A decision point of the guide ("if still failing …"): buttons in the thread that continue the remedy. */
export interface Decision {
  readonly question: string;
  readonly choices: readonly { readonly id: string; readonly label: string; readonly then: DecisionOutcome }[];
}

/** One approved unit of a remedy: planned, approved and run together. */
export interface Stage {
  /** A slug unique within the entry, e.g. `restart-watcher`. */
  readonly id: string;
  readonly title: string;
  readonly steps: readonly Step[];
  /** Asked after the stage's steps are done; absent means the remedy ends with the stage. */
  readonly then?: Decision;
}

/** A value a person gives with a fix; checked against `pattern` (a linear-time RegExp source). */
export interface EntryParam {
  readonly name: string;
  readonly description: string;
  readonly default?: string;
  readonly pattern: string;
  readonly example: string;
  /**
   * `in-cluster-url`: an address a platform component will call; loopback, link-local, unspecified
   * and cloud metadata addresses are refused in every spelling (see catalogue/endpoint.ts).
   */
  readonly format?: 'in-cluster-url';
}

/** A platform version range an entry or procedure applies to (section 9). */
export interface VersionConstraint {
  readonly atLeast?: string;
  readonly below?: string;
  readonly why: string;
}

/**
 * What a pasted text must show for the entry to match. All texts are matched case-insensitively as
 * literals (never as regular expressions written by hand), so matching stays linear-time.
 */
export interface Signatures {
  /** The guide's exact error texts and the real messages behind them: strong evidence. */
  readonly errors: readonly string[];
  /** The words people use for the symptom ("build logs are not streaming"): evidence in sentences. */
  readonly phrases: readonly string[];
  /** Words that make the entry more likely when they appear with its evidence (component names). */
  readonly context?: readonly string[];
  /** Texts that point elsewhere (near-misses): when present, the entry is not proposed. */
  readonly excludes?: readonly string[];
}

/** One entry of the guide: a symptom, its cause and its remedy. */
export interface CatalogueEntry {
  /** A readable slug such as `build-logs`; what users type after `/platform fix`. */
  readonly id: string;
  readonly ref: GuideRef;
  readonly title: string;
  readonly symptom: string;
  readonly cause: string;
  /** What the matcher recognises the entry by. */
  readonly signatures: Signatures;
  readonly versions?: VersionConstraint;
  /** Other places of the guide that describe the same remedy (7.6 and 5.4); no two entries share one. */
  readonly alsoRefs?: readonly GuideRef[];
  /** Values a person gives with the fix (`/platform fix upload-too-large size=200m`), with the guide's defaults. */
  readonly params?: readonly EntryParam[];
  /** The remedy; a fix starts with the first stage. */
  readonly stages: readonly Stage[];
}

/** The approval a step needs: declared, or derived from its risk. */
export function approvalOf(step: Step): ApprovalNeed {
  if (step.approval) return step.approval;
  return step.risk === 'read-only' ? 'none' : step.risk === 'restart' ? 'approver' : 'second-person';
}

/** The strictest approval any step of a stage needs. */
export function stageApproval(stage: Stage): ApprovalNeed {
  const order: ApprovalNeed[] = ['none', 'approver', 'second-person'];
  return stage.steps.map(approvalOf).reduce((a, b) => (order.indexOf(b) > order.indexOf(a) ? b : a), 'none' as ApprovalNeed);
}
