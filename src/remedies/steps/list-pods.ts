import type { ListPodsStep, Permission } from '../../catalogue/model.js';
import type { PlannedStep } from '../plan.js';
import type { StepContext, StepResult } from './context.js';
import { approvalOf } from '../../catalogue/model.js';

/** Permissions of a pod listing. */
export function listPodsPermissions(step: ListPodsStep): Permission[] {
  return [{ apiGroup: '', resource: 'pods', verbs: ['list'], scope: step.namespace }];
}

function age(createdAt: string, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(createdAt)) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  if (s < 172_800) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86_400)}d`;
}

/** Lists the newest pods while planning, so the approver sees them on the card. */
export async function planListPods(ctx: StepContext, step: ListPodsStep, index: number): Promise<PlannedStep> {
  const namespace = ctx.names[step.namespace];
  const selector = step.label ? ctx.names[step.label] : undefined;
  const pods = await ctx.gateway.listPods(namespace, selector);
  const now = ctx.now();
  const newest = pods.slice(-step.newest).reverse();
  const lines =
    newest.length === 0
      ? [`No pods in ${namespace}${selector ? ` with ${selector}` : ''}.`]
      : newest.map((p) => `${p.name} — ${p.phase}, created ${age(p.createdAt, now)} ago`);
  return {
    index,
    kind: 'listPods',
    does: step.does,
    risk: step.risk,
    approval: approvalOf(step),
    namespace,
    ...(selector ? { selector } : {}),
    lines,
    lookFor: step.lookFor,
  };
}

/** The listing was shown at plan time; the run only records it. */
export function runListPods(step: Extract<PlannedStep, { kind: 'listPods' }>): StepResult {
  return { status: 'done', message: `Checked pods in ${step.namespace} (shown on the plan).` };
}
