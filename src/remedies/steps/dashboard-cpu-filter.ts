import type { DashboardCpuFilterStep } from '../../catalogue/model.js';
import { dashboardFailure, openDashboard } from '../dashboard/connect.js';
import { cpuFilterSchema, inspectCpuFilter, removeCpuFilter, type CpuFilterData } from '../dashboard/cpu-filter.js';
import type { StepKind } from './context.js';
import { platformSecretPermission } from './secret-key.js';

/**
 * Entry 11: remove `image!=''` from the CPU panels' queries of the platform's dashboards. The plan
 * shows each query before and after and pins each dashboard's version; the run saves without
 * overwriting, so a dashboard someone saved since the plan is refused (412) rather than clobbered.
 */
export const dashboardRemoveCpuFilter: StepKind<DashboardCpuFilterStep, CpuFilterData> = {
  kind: 'dashboardRemoveCpuFilter',
  schema: cpuFilterSchema,
  permissions: () => [platformSecretPermission],
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
};
