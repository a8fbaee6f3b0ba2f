import type { CatalogueEntry, Permission, Verb } from '../catalogue/model.js';
import type { PlatformNames } from '../platform-names.js';
import { permissionsOf } from './steps/index.js';

/** A Kubernetes RBAC rule. */
export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: Verb[];
}

/** The worker's RBAC: rules per namespace, and the few that are truly cluster-scoped. */
export interface WorkerRbac {
  namespaceRules: Record<string, PolicyRule[]>;
  clusterRules: PolicyRule[];
}

const verbOrder: Verb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** Every permission the catalogue's steps declare. */
export function declaredPermissions(entries: readonly CatalogueEntry[]): Permission[] {
  return entries.flatMap((e) => e.stages.flatMap((s) => s.steps.flatMap((step) => permissionsOf(step))));
}

/**
 * The least RBAC that lets the worker carry out every remedy: the union of what the steps declare,
 * merged per namespace and resource, verbs in a stable order, never a wildcard.
 */
export function workerRbac(entries: readonly CatalogueEntry[], names: PlatformNames): WorkerRbac {
  const merged = new Map<string, Set<Verb>>();
  for (const p of declaredPermissions(entries)) {
    const ns = p.scope === 'cluster' ? '' : names[p.scope];
    const key = JSON.stringify([ns, p.apiGroup, p.resource]);
    const verbs = merged.get(key) ?? new Set<Verb>();
    p.verbs.forEach((v) => verbs.add(v));
    merged.set(key, verbs);
  }
  const rbac: WorkerRbac = { namespaceRules: {}, clusterRules: [] };
  for (const [key, verbs] of [...merged].sort(([a], [b]) => a.localeCompare(b))) {
    const [ns, group, resource] = JSON.parse(key) as [string, string, string];
    const rule: PolicyRule = { apiGroups: [group], resources: [resource], verbs: verbOrder.filter((v) => verbs.has(v)) };
    if (ns === '') rbac.clusterRules.push(rule);
    else (rbac.namespaceRules[ns] ??= []).push(rule);
  }
  return rbac;
}
