import { z } from 'zod';
import { defineStep } from './kind.js';
import { labelName, namespaceName, stepBase } from './step.js';

/** How long ago, compactly: 45s, 12m, 3h, 2d. */
export function age(createdAt: string, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - Date.parse(createdAt)) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  if (s < 172_800) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86_400)}d`;
}

/** Read-only: list pods (newest first), e.g. the build pods of the CI namespace. Runs while planning. */
const listPodsStep = z.strictObject({
  ...stepBase,
  kind: z.literal('listPods'),
  risk: z.literal('read-only'),
  namespace: namespaceName,
  label: labelName.optional(),
  /** How many of the newest pods to show. */
  newest: z.number().int().positive(),
  /** What the person reading the list should look for. */
  lookFor: z.string(),
});
export type ListPodsStep = z.infer<typeof listPodsStep>;

/** Read-only: the newest pods of a namespace, listed while planning so the approver sees them. */
export const listPods = defineStep({
  kind: 'listPods',
  step: listPodsStep,
  data: z.object({ namespace: z.string(), selector: z.string().optional() }),
  permissions: (step) => [{ apiGroup: '', resource: 'pods', verbs: ['list'], scope: step.namespace }],
  parameters: () => [],
  async plan(ctx, step) {
    const namespace = ctx.names[step.namespace];
    const selector = step.label ? ctx.names[step.label] : undefined;
    const pods = await ctx.gateway.listPods(namespace, selector);
    const now = ctx.now();
    const newest = pods.slice(-step.newest).reverse();
    const lines =
      newest.length === 0
        ? [`No pods in ${namespace}${selector ? ` with ${selector}` : ''}.`]
        : newest.map((p) => `${p.name} — ${p.phase}, created ${age(p.createdAt, now)} ago`);
    return { lines: [...lines, step.lookFor], targets: [], data: { namespace, ...(selector ? { selector } : {}) } };
  },
  async run(_ctx, planned) {
    return { status: 'done', message: `Checked pods in ${planned.data.namespace} (shown on the plan).` };
  },
});
