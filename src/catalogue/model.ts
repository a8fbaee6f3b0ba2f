import type { Detector } from '../doctor/detectors/registry.js';
import type { Step } from '../remedies/steps/registry.js';
import { approvalOf, type ApprovalNeed } from '../remedies/steps/approval.js';

/**
 * The catalogue model: every entry of the guide (section 7's symptoms, section 5's procedures) is one
 * typed, declarative definition. RBAC, help text and the approval card are derived from it.
 */

/** Where an entry stands in the guide: section 7 entry 4 is `7.4`, section 5 procedure 2 is `5.2`. */
export type GuideRef = `${5 | 7}.${number}`;

/**
 * A step of a remedy. Each kind of step is declared in one file under src/remedies/steps/ (its schema,
 * permissions, parameters, plan and run); the catalogue takes their union from the registry, as a type
 * only, so that loading the catalogue loads none of them.
 */
export type { Step } from '../remedies/steps/registry.js';
/** How the entry's symptom shows in the cluster; declared per kind under src/doctor/detectors/ (types only here). */
export type { Detector } from '../doctor/detectors/registry.js';
export { approvalOf } from '../remedies/steps/approval.js';

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
   * What a hint shows in place of a required value, between angle brackets (`metricsStore=<metrics-store-URL>`):
   * words joined by dashes, no spaces, so the hint stays one word the fix command reads.
   */
  readonly placeholder?: string;
  /**
   * `in-cluster-url`: an address a platform component will call; loopback, link-local, unspecified
   * and cloud metadata addresses are refused in every spelling (see remedies/dashboard/endpoint.ts).
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
  /**
   * What the entry's cause breaks further down, in the words of other components (tables missing because
   * the migrations failed, a load balancer left half made): texts that other causes produce too, so they
   * are never enough alone, even in a sentence. They count with support: one of the entry's `context`
   * texts near them, or, for an entry whose remedy acts on the platform, a paste that names the platform.
   */
  readonly downstream?: readonly string[];
  /**
   * Texts that show the entry's fix is already in place (the setting the guide prescribes); with words
   * saying the error persists, the entry is not proposed again (see matching/applied.ts).
   */
  readonly applied?: readonly string[];
  /**
   * Values that, right after an `applied` text, show the setting still at its default (the body size at
   * nginx's 1m): that mention is the cause, not the fix in place.
   */
  readonly unapplied?: readonly string[];
  /**
   * Words with which a person asks for another way than the entry's fix ("without disabling TLS verification"
   * for a fix that disables it): the guide has no other, so the fix is not proposed (see matching/applied.ts).
   */
  readonly declines?: readonly string[];
  /**
   * Marks of the entry's cause, when its symptoms have many causes: without one of these anywhere in the
   * paste, the symptoms alone are not this entry (an ImagePullBackOff with no refusal of credentials in
   * sight is a tag, a network or a rate limit as often as a private registry).
   */
  readonly requires?: readonly string[];
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
  /**
   * Whom the remedy can help: `platform` (the default) when it acts on the platform's own objects (its
   * database, git-sensor, its secrets), so a paste about another product or a user's workload is not
   * its subject; `platform-apps` when it acts on the platform's settings for the applications it deploys
   * (their pods and images are users' names, and a paste may name no platform component); `any-product`
   * when the remedy is generic (an ingress annotation, an IAM policy).
   */
  readonly appliesTo?: 'platform' | 'platform-apps' | 'any-product';
  /**
   * For an entry whose remedy acts on one kind of thing (an ingress, metrics-server, the platform's
   * terminal) while its messages come from many: the names that show a paste is about such a thing (lower case, read as substrings), and whether a paste
   * about the platform shows it too (the platform's own ingress does; the platform names no metrics-server).
   * A paste that shows neither leaves the subject unknown: the entry is asked about, never proposed alone.
   */
  readonly subject?: {
    readonly names: readonly string[];
    readonly platform: boolean;
    /**
     * Whether an image tagged as a build pipeline tags it (a commit's short hash, then the build's numbers: the platform's
     * CI writes `<8 hex>-<pipeline>-<build>`) shows it too: an application built and deployed by a pipeline, not another
     * product's release pulled by hand.
     */
    readonly builtImage?: boolean;
  };
  /**
   * Less destructive entries that explain the same message and come first when the paste does not say
   * which (a failed login may be a mistyped password or a stale cookie before it is a lost password).
   */
  readonly gentler?: { readonly entries: readonly string[]; readonly forTexts: readonly string[] };
  /** Other places of the guide that describe the same remedy (7.6 and 5.4); no two entries share one. */
  readonly alsoRefs?: readonly GuideRef[];
  /** Values a person gives with the fix (`/platform fix upload-too-large size=200m`), with the guide's defaults. */
  readonly params?: readonly EntryParam[];
  /** The remedy; a fix starts with the first stage. */
  readonly stages: readonly Stage[];
  /**
   * How the doctor tells whether the symptom is there now: a read-only check of the cluster's own
   * evidence, or `notObservable` with what the person checks instead. Absent only while its detector
   * is still to be written (see test/doctor/catalogue-detectors.test.ts).
   */
  readonly detector?: Detector;
}

/** The strictest approval any step of a stage needs. */
export function stageApproval(stage: Stage): ApprovalNeed {
  const order: ApprovalNeed[] = ['none', 'approver', 'second-person'];
  return stage.steps.map(approvalOf).reduce((a, b) => (order.indexOf(b) > order.indexOf(a) ? b : a), 'none' as ApprovalNeed);
}
