import type { ClusterGateway } from '../../cluster/gateway.js';
import type { PlatformNames } from '../../platform-names.js';

/** What a step needs to plan and run against one cluster. */
export interface StepContext {
  readonly gateway: ClusterGateway;
  readonly names: PlatformNames;
  /** Replaces every wait of the guide, for demos and tests. */
  readonly waitOverrideSeconds?: number;
  /** Interval between checks while verifying. */
  readonly pollMs: number;
  readonly now: () => Date;
}

/** The outcome of one step of a run. Expected outcomes are values; exceptions are bugs. */
export type StepResult =
  | { readonly status: 'done' | 'skipped' | 'failed'; readonly message: string; readonly details?: readonly string[] }
  /** The run continues after a delay, as a new job (a wait of the guide). */
  | { readonly status: 'waiting'; readonly message: string; readonly seconds: number }
  /** The cluster is not what the plan showed; nothing was touched by this step. */
  | { readonly status: 'changed'; readonly message: string; readonly details?: readonly string[] };
