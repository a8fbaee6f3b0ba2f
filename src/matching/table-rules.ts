import type { TableFact } from './kubectl.js';

/**
 * What a kubectl table row is evidence for. `strong` stands alone like an error text; `weak` needs
 * the entry's context nearby (the platform namespace, an auth failure) before it is proposed.
 * The guide's own wording: jobs at 0/1 completions (7.1), the database pod failing to pull (7.9),
 * a pod in ImagePullBackOff with a private registry (7.20).
 */
export interface TableRule {
  readonly fact: TableFact['kind'];
  /** The row's object name must (or must not) contain this. */
  readonly nameHas?: string;
  readonly nameLacks?: string;
  readonly entry: string;
  readonly strength: 'strong' | 'weak';
  /** Shown as the evidence's signature. */
  readonly signature: string;
}

export const TABLE_RULES: readonly TableRule[] = [
  { fact: 'job-incomplete', entry: 'install-jobs-failed', strength: 'weak', signature: 'kubectl get jobs: a job at 0/1 completions' },
  { fact: 'pod-image-pull', nameHas: 'postgres', entry: 'database-image-pull', strength: 'strong', signature: 'kubectl get pods: the database pod cannot pull its image' },
  { fact: 'pod-crash-loop', nameHas: 'postgres', entry: 'database-image-pull', strength: 'weak', signature: 'kubectl get pods: the database pod is crash-looping' },
  { fact: 'pod-image-pull', nameLacks: 'postgres', entry: 'image-pull-private-registry', strength: 'weak', signature: 'kubectl get pods: a pod in ImagePullBackOff' },
];

/** The rules a fact satisfies. */
export function rulesFor(fact: TableFact): TableRule[] {
  const name = fact.name.toLowerCase();
  return TABLE_RULES.filter(
    (r) => r.fact === fact.kind && (r.nameHas === undefined || name.includes(r.nameHas)) && (r.nameLacks === undefined || !name.includes(r.nameLacks)),
  );
}
