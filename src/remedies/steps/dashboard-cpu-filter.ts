import { z } from 'zod';
import { dashboardFailure, openDashboard } from '../dashboard/connect.js';
import { cpuFilterSchema, inspectCpuFilter, removeCpuFilter, type CpuFilterData } from '../dashboard/cpu-filter.js';
import { defineStep } from './kind.js';
import { platformSecretPermission } from './secret-key.js';
import { stepBase } from './step.js';

/** Entry 11: remove the `image!=''` filter from the CPU panels' queries of the dashboards. */
const dashboardCpuFilterStep = z.strictObject({ ...stepBase, kind: z.literal('dashboardRemoveCpuFilter') });
export type DashboardCpuFilterStep = z.infer<typeof dashboardCpuFilterStep>;

/**
 * Entry 11: remove `image!=''` from the CPU panels' queries of the platform's dashboards. The plan
 * shows each query before and after and pins each dashboard's version; the run saves without
 * overwriting, so a dashboard someone saved since the plan is refused (412) rather than clobbered.
 */
export const dashboardRemoveCpuFilter = defineStep({
  kind: 'dashboardRemoveCpuFilter',
  step: dashboardCpuFilterStep,
  data: cpuFilterSchema,
  permissions: () => [platformSecretPermission],
  parameters: () => [],
  async plan(ctx, step) {
    const none: CpuFilterData = { orgId: 0, dashboards: [] };
    const open = await openDashboard(ctx);
    if (!open.ok) return { lines: [step.does], targets: [], data: none, blocked: open.message };
    try {
      const r = await inspectCpuFilter(open.client, ctx.names.dashboardOrgName);
      return { lines: r.lines.length > 0 ? r.lines : [step.does], targets: r.targets, data: r.data, ...(r.blocked ? { blocked: r.blocked } : {}) };
    } catch (err) {
      return { lines: [step.does], targets: [], data: none, blocked: dashboardFailure(err) };
    }
  },
  async run(ctx, planned) {
    const open = await openDashboard(ctx);
    if (!open.ok) return { status: 'failed', message: open.message };
    return removeCpuFilter(open.client, planned.data);
  },
});
