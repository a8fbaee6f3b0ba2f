import type { CustomKind } from '../../cluster/gateway.js';
import type { StepContext, StepPlan } from './context.js';

/**
 * A custom resource type a step cannot plan without (declared by its kind, see StepDeclaration.needsType),
 * and what the type's absence means for the remedy, in words for the person who asked.
 */
export interface ResourceTypeNeed {
  readonly kind: CustomKind;
  readonly meaning: string;
}

/** The words for clusters without Argo Rollouts, shared by the rollout entries. */
export const rolloutsAbsent = 'Argo Rollouts is not installed here';

/**
 * Before a step that reads or writes a custom resource plans anything, checks through discovery that the
 * cluster serves its type. Without the CRD a real API server answers every request for it with a 404
 * (k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go), which a plan would otherwise
 * take for "the object does not exist yet" and fail later at a dry run with "not found". Returns the
 * blocked plan to show instead, or undefined when the step may plan.
 */
export async function missingResourceType(ctx: StepContext, need: ResourceTypeNeed | undefined): Promise<StepPlan<null> | undefined> {
  if (!need || (await ctx.gateway.custom.served(need.kind))) return undefined;
  const groupVersion = `${need.kind.group}/${need.kind.version}`;
  return {
    lines: [`no ${need.kind.kind} resource type on this cluster (${groupVersion})`],
    targets: [],
    data: null,
    blocked: `This cluster has no ${need.kind.kind} resource type (${groupVersion} is not served): ${need.meaning}.`,
  };
}
