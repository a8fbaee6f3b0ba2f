/** One rule of a Role or ClusterRole, in Kubernetes' own shape. */
export interface PolicyRule {
  apiGroups: string[];
  /** Resource names, possibly with a subresource such as `pods/log`. */
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

/**
 * What one subject may do: the rules of its ClusterRoleBindings (everywhere) and of its RoleBindings
 * (per namespace). Without a policy the simulator lets everything through, like a cluster admin.
 */
export interface SimPolicy {
  /** The user name as the API server reports it, e.g. `system:serviceaccount:devtroncd:platform-medic-worker`. */
  subject: string;
  clusterRules: PolicyRule[];
  namespaceRules: Record<string, PolicyRule[]>;
}

/** The attributes the API server authorises a resource request on. */
export interface RequestAttributes {
  verb: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  name: string;
  namespace: string;
}

function has(list: readonly string[] | undefined, value: string): boolean {
  return list !== undefined && (list.includes(value) || list.includes('*'));
}

function resourceMatches(rule: PolicyRule, attrs: RequestAttributes): boolean {
  if (attrs.subresource === '') return has(rule.resources, attrs.resource);
  const combined = `${attrs.resource}/${attrs.subresource}`;
  return rule.resources.includes(combined) || rule.resources.includes('*') || rule.resources.includes(`*/${attrs.subresource}`);
}

/** Kubernetes' RuleAllows: verb, group, resource and (when listed) name must all match. */
export function ruleAllows(rule: PolicyRule, attrs: RequestAttributes): boolean {
  if (!has(rule.verbs, attrs.verb) || !has(rule.apiGroups, attrs.apiGroup) || !resourceMatches(rule, attrs)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(attrs.name);
}

export function authorize(policy: SimPolicy, attrs: RequestAttributes): boolean {
  if (policy.clusterRules.some((r) => ruleAllows(r, attrs))) return true;
  if (attrs.namespace === '') return false;
  return (policy.namespaceRules[attrs.namespace] ?? []).some((r) => ruleAllows(r, attrs));
}

/** The reason text of a 403, worded as the RBAC authorizer words it. */
export function forbiddenReason(subject: string, attrs: RequestAttributes): string {
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const where = attrs.namespace ? `in the namespace "${attrs.namespace}"` : 'at the cluster scope';
  return `User "${subject}" cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup}" ${where}`;
}
