import type { Step } from '../../catalogue/model.js';
import { customKinds, type CustomKind } from '../../cluster/gateway.js';
import type { StepContext, StepPlan } from './context.js';

/** A custom resource type a step cannot plan without, and what its absence means for the remedy. */
interface Need {
  readonly kind: CustomKind & { readonly kind: string };
  readonly meaning: string;
}

const rolloutsAbsent = 'Argo Rollouts is not installed here';

function needOf(step: Step): Need | undefined {
  switch (step.kind) {
    case 'createBackendConfig':
      return { kind: customKinds.backendConfig, meaning: 'a BackendConfig configures the load balancer of GKE ingresses, so this remedy applies to GKE ingresses only' };
    case 'checkLastAppliedJson':
      return { kind: customKinds.rollout, meaning: `${rolloutsAbsent}, so no rollout can carry the broken annotation on this cluster` };
    case 'applyManifest':
      return step.manifest === 'rollout'
        ? { kind: customKinds.rollout, meaning: `${rolloutsAbsent}, so there are no rollout definitions to update; this remedy applies where Argo Rollouts runs` }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Before a step that reads or writes a custom resource plans anything, checks through discovery that the
 * cluster serves its type. Without the CRD a real API server answers every request for it with a 404
 * (k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go), which a plan would otherwise
 * take for "the object does not exist yet" and fail later at a dry run with "not found". Returns the
 * blocked plan to show instead, or undefined when the step may plan.
 */
export async function missingResourceType(ctx: StepContext, step: Step): Promise<StepPlan<null> | undefined> {
  const need = needOf(step);
  if (!need || (await ctx.gateway.custom.served(need.kind))) return undefined;
  const groupVersion = `${need.kind.group}/${need.kind.version}`;
  return {
    lines: [`no ${need.kind.kind} resource type on this cluster (${groupVersion})`],
    targets: [],
    data: null,
    blocked: `This cluster has no ${need.kind.kind} resource type (${groupVersion} is not served): ${need.meaning}.`,
  };
}
