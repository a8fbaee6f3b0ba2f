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
}

/** A platform name that is one pod, or a list of pods (the message brokers). */
export type PodName = 'gitSensorPod' | 'databasePod' | 'brokerPods';

/** Pods chosen by label selector or by name, in one of the platform's namespaces. */
export type PodTarget =
  | { readonly by: 'label'; readonly namespace: NamespaceName; readonly label: LabelName }
  | { readonly by: 'name'; readonly namespace: NamespaceName; readonly pod: PodName };

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

/** One step of a remedy. Further kinds (manifests, patches, secrets, dashboard, database) join this union. */
export type Step = ListPodsStep | DeletePodsStep | WaitStep | ManualStep;

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

/** A platform version range an entry or procedure applies to (section 9). */
export interface VersionConstraint {
  readonly atLeast?: string;
  readonly below?: string;
  readonly why: string;
}

/** One entry of the guide: a symptom, its cause and its remedy. */
export interface CatalogueEntry {
  /** A readable slug such as `build-logs`; what users type after `/platform fix`. */
  readonly id: string;
  readonly ref: GuideRef;
  readonly title: string;
  readonly symptom: string;
  readonly cause: string;
  /** The guide's exact error texts, and the phrases people use for the symptom. */
  readonly signatures: { readonly errors: readonly string[]; readonly phrases: readonly string[] };
  readonly versions?: VersionConstraint;
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
