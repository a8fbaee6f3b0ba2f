import type { ClusterGateway } from '../../cluster/gateway.js';
import type { PlatformNames } from '../../platform-names.js';
import type { Target } from '../plan.js';
import type { StepBase } from './step.js';

/** What a step needs to plan and run against one cluster. */
export interface StepContext {
  readonly gateway: ClusterGateway;
  readonly names: PlatformNames;
  /**
   * Values the person gave with the fix, already checked against the entry's parameters; while a step
   * plans, only those its kind declares (StepKind.parameters).
   */
  readonly params?: Readonly<Record<string, string>>;
  /** Replaces every wait of the guide, for demos and tests. */
  readonly waitOverrideSeconds?: number;
  /** Interval between checks while verifying. */
  readonly pollMs: number;
  readonly now: () => Date;
  /**
   * Seals a secret for the person who asked (see jobs/sealing.ts); absent when the run carries no
   * key, in which case a step that reveals a secret must fail rather than expose it.
   */
  readonly seal?: (plaintext: string) => string;
  /**
   * The steps before this one in its stage, while planning: a step that depends on what an earlier
   * step will do (grow a claim after expansion is allowed; leave out pods already deleted by name)
   * plans with them in mind (StepKind.is tells their kind).
   */
  readonly earlier?: readonly StepBase[];
  /** Folder of the platform manifests bundled with platform-medic; default the package's manifests/ (tests point at a copy). */
  readonly manifestBundle?: string;
}

/** The outcome of one step of a run. Expected outcomes are values; exceptions are bugs. */
export type StepResult =
  | {
      readonly status: 'done' | 'skipped' | 'failed';
      readonly message: string;
      readonly details?: readonly string[];
      /** A secret sealed for the person who asked; the bot opens it and shows it to them alone. */
      readonly sealed?: string;
    }
  /** The run continues after a delay, as a new job (a wait of the guide). */
  | { readonly status: 'waiting'; readonly message: string; readonly seconds: number }
  /** The cluster is not what the plan showed; nothing was touched by this step. */
  | { readonly status: 'changed'; readonly message: string; readonly details?: readonly string[] };

/** What planning one step produced. */
export interface StepPlan<D> {
  readonly lines: string[];
  readonly targets: Target[];
  readonly data: D;
  readonly warnings?: string[];
  /** Set when the stage cannot go ahead (e.g. a version gate); the card shows it instead of Approve. */
  readonly blocked?: string;
  /**
   * The block is that what the step reads did not answer (a database at a closed port), not anything
   * it found: a run that re-plans says it could not reach it, never that the cluster changed.
   */
  readonly unreachable?: boolean;
}
