import { z } from 'zod';
import type { LabelName, NamespaceName } from '../../platform-names.js';
import type { ApprovalNeed, Risk } from './approval.js';

/**
 * What every step of a remedy says about itself, and the vocabulary step kinds describe their steps
 * with. It sits below the catalogue: an entry's steps are typed by the step kinds, and each kind's
 * file builds its step schema from the pieces here.
 */

const risk = z.enum(['read-only', 'restart', 'destructive']) satisfies z.ZodType<Risk>;
const approvalNeed = z.enum(['none', 'approver', 'second-person']) satisfies z.ZodType<ApprovalNeed>;
export { approvalOf, type ApprovalNeed, type Risk } from './approval.js';

/** The Kubernetes verbs a step may need. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

/** Where a permission applies: a namespace named by the cluster's platform names, or the whole cluster. */
export type PermissionScope = NamespaceName | 'cluster';

/** A platform name that names one object, for RBAC rules limited by resourceNames. */
export type ObjectName = 'platformSecret' | 'gitopsSecret' | 'databaseStatefulSet' | 'gitSensorClaim' | 'installerName' | 'manifestConfigMap';

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

/** A zod enum whose values are exactly the keys of `T`: a name added to the type must be added here. */
function namesOf<T extends string>(names: { readonly [K in T]: K }) {
  return z.enum(names);
}

/** A namespace of the platform, by its key in the cluster's platform names. */
export const namespaceName = namesOf<NamespaceName>({ platformNamespace: 'platformNamespace', ciNamespace: 'ciNamespace' });

/** A label selector of the platform, by its key in the cluster's platform names. */
export const labelName = namesOf<LabelName>({
  mainPodLabel: 'mainPodLabel',
  eventWatcherLabel: 'eventWatcherLabel',
  gitSensorLabel: 'gitSensorLabel',
  dexServerLabel: 'dexServerLabel',
  gitopsServerLabel: 'gitopsServerLabel',
});

/** The name of one of the entry's parameters, which the step reads (see StepKind.parameters). */
export const parameterName = z.string().min(1);

/**
 * The fields every step has; a kind's schema spreads them and adds its own (and may narrow `risk`,
 * e.g. a read-only kind).
 */
export const stepBase = {
  /** What the step does, in the guide's words; shown on the approval card. */
  does: z.string().min(1),
  risk,
  /** Defaults from risk: read-only → none, restart → approver, destructive → second-person. */
  approval: approvalNeed.optional(),
};

/** What every step says about itself, whatever its kind. */
export interface StepBase {
  readonly kind: string;
  readonly does: string;
  readonly risk: Risk;
  readonly approval?: ApprovalNeed | undefined;
}
