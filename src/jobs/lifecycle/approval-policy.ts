import type { Plan } from '../../remedies/plan.js';

/** Whether a person approves on a cluster; `note` says why not when an approver group could not be read. */
export interface ApproverCheck {
  readonly approver: boolean;
  readonly note?: string;
}

/**
 * Who may approve, as the lifecycle asks it: each surface brings its own (Slack's reads user groups,
 * the terminal's knows the person at the keyboard), and words its refusals for its own readers.
 */
export interface ApprovalPolicy {
  /** A refusal to show the person, or undefined when they may approve the plan. */
  refusal(user: string, plan: Plan, requestedBy: string): Promise<string | undefined>;
  /** Whether the person approves on the cluster: may also deny, cancel, plan again, answer and read its audit trail. */
  check(user: string, cluster: string): Promise<ApproverCheck>;
}
