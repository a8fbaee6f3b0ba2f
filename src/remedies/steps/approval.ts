/**
 * How much a step can disturb the platform and who must approve it: the part of the steps'
 * vocabulary the catalogue reads at load. Free of the schema library on purpose: `match`, `explain`
 * and `list` load the catalogue, and must start fast (step.ts builds the schemas from these).
 */

/** How much a step can disturb the platform; it decides whether a person must approve it. */
export type Risk = 'read-only' | 'restart' | 'destructive';

/**
 * Who must approve a step before it runs: nobody, any configured approver, or an approver other than
 * the person who asked (two-person rule).
 */
export type ApprovalNeed = 'none' | 'approver' | 'second-person';

/** The approval a step needs: declared, or derived from its risk. */
export function approvalOf(step: { readonly risk: Risk; readonly approval?: ApprovalNeed | undefined }): ApprovalNeed {
  if (step.approval) return step.approval;
  return step.risk === 'read-only' ? 'none' : step.risk === 'restart' ? 'approver' : 'second-person';
}
