import type { CatalogueEntry } from '../catalogue/model.js';
import { detectorPermissions } from '../doctor/detectors/registry.js';
import type { PlatformNames } from '../platform-names.js';
import { permissionsOf } from './steps/index.js';
import type { Permission, Verb } from './steps/step.js';

/** A Kubernetes RBAC rule. */
export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: Verb[];
  /** Present when the rule only covers these named objects. */
  resourceNames?: string[];
}

/** The worker's RBAC: rules per namespace, and the few that are truly cluster-scoped. */
export interface WorkerRbac {
  namespaceRules: Record<string, PolicyRule[]>;
  clusterRules: PolicyRule[];
}

const verbOrder: Verb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
/** Verbs that RBAC can limit to named objects; list, watch and create never carry a name. */
const nameable = new Set<Verb>(['get', 'update', 'patch', 'delete']);

/** Every permission the catalogue's steps and detectors declare. */
export function declaredPermissions(entries: readonly CatalogueEntry[]): Permission[] {
  return entries.flatMap((e) => [...e.stages.flatMap((s) => s.steps.flatMap((step) => permissionsOf(step))), ...(e.detector ? detectorPermissions(e.detector) : [])]);
}

function namesOf(p: Permission, names: PlatformNames): string[] | undefined {
  if (!p.resourceNames || p.resourceNames.length === 0) return undefined;
  return p.resourceNames.map((n) => (typeof n === 'string' ? names[n] : n.literal));
}

interface Grant {
  all: Set<Verb>;
  /** Verb → the object names it is limited to. */
  named: Map<Verb, Set<string>>;
}

/**
 * The least RBAC that lets the worker carry out every remedy: the union of what the steps declare,
 * merged per namespace and resource, verbs in a stable order, never a wildcard. A verb granted on
 * every object of a resource absorbs the same verb limited to names; the named rest becomes one rule
 * per set of names.
 */
export function workerRbac(entries: readonly CatalogueEntry[], names: PlatformNames): WorkerRbac {
  const grants = new Map<string, Grant>();
  for (const p of declaredPermissions(entries)) {
    const ns = p.scope === 'cluster' ? '' : names[p.scope];
    const key = JSON.stringify([ns, p.apiGroup, p.resource]);
    const grant = grants.get(key) ?? { all: new Set<Verb>(), named: new Map<Verb, Set<string>>() };
    const limited = namesOf(p, names);
    for (const v of p.verbs) {
      if (!limited || !nameable.has(v)) grant.all.add(v);
      else {
        const set = grant.named.get(v) ?? new Set<string>();
        limited.forEach((n) => set.add(n));
        grant.named.set(v, set);
      }
    }
    grants.set(key, grant);
  }
  const rbac: WorkerRbac = { namespaceRules: {}, clusterRules: [] };
  for (const [key, grant] of [...grants].sort(([a], [b]) => a.localeCompare(b))) {
    const [ns, group, resource] = JSON.parse(key) as [string, string, string];
    const rules: PolicyRule[] = [];
    if (grant.all.size > 0) rules.push({ apiGroups: [group], resources: [resource], verbs: verbOrder.filter((v) => grant.all.has(v)) });
    // Verbs limited to the same names share one rule.
    const byNames = new Map<string, Verb[]>();
    for (const v of verbOrder) {
      const set = grant.named.get(v);
      if (!set || grant.all.has(v)) continue;
      const id = JSON.stringify([...set].sort());
      byNames.set(id, [...(byNames.get(id) ?? []), v]);
    }
    for (const [id, verbs] of byNames) rules.push({ apiGroups: [group], resources: [resource], verbs, resourceNames: JSON.parse(id) as string[] });
    for (const rule of rules) {
      if (ns === '') rbac.clusterRules.push(rule);
      else (rbac.namespaceRules[ns] ??= []).push(rule);
    }
  }
  return rbac;
}
