import { z } from 'zod';
import { endpointProblem } from '../dashboard/endpoint.js';
import { dashboardFailure, openDashboard } from '../dashboard/connect.js';
import { inspectOrg, orgRepairSchema, type OrgRepairData } from '../dashboard/org-inspect.js';
import { repairOrg } from '../dashboard/org-repair.js';
import { defineStep } from './kind.js';
import { platformSecretPermission } from './secret-key.js';
import { parameterName, stepBase } from './step.js';

/** Entry 5: the dashboard organisation repair, as HTTP calls made by the worker inside the cluster. */
const dashboardOrgRepairStep = z.strictObject({ ...stepBase, kind: z.literal('dashboardOrgRepair'), metricsStoreParam: parameterName });
export type DashboardOrgRepairStep = z.infer<typeof dashboardOrgRepairStep>;

/**
 * Entry 5: create the dashboard organisation, its default data source pointing at the metrics store,
 * and the four dashboards, by the calls of section 4 made from the worker inside the cluster. The plan
 * says what is missing; the run creates exactly that and verifies. The dashboard calls need no
 * Kubernetes permission; reading the password needs `get` on the platform secret.
 */
export const dashboardOrgRepair = defineStep({
  kind: 'dashboardOrgRepair',
  step: dashboardOrgRepairStep,
  data: orgRepairSchema,
  permissions: () => [platformSecretPermission],
  parameters: (step) => [step.metricsStoreParam],
  async plan(ctx, step) {
    const metricsStore = ctx.params?.[step.metricsStoreParam];
    const empty: OrgRepairData = { orgName: ctx.names.dashboardOrgName, orgId: null, metricsStore: metricsStore ?? '', dataSource: { action: 'create' }, imports: [] };
    if (!metricsStore) return { lines: [step.does], targets: [], data: empty, blocked: `Give the metrics store address: /platform fix … ${step.metricsStoreParam}=http://prometheus-server.monitoring.svc:80` };
    // The bot refuses these addresses already; the worker does too, whatever reaches its queue.
    const refused = endpointProblem(metricsStore);
    if (refused) return { lines: [step.does], targets: [], data: empty, blocked: `The metrics store address is refused: ${refused}.` };
    const open = await openDashboard(ctx);
    if (!open.ok) return { lines: [step.does], targets: [], data: empty, blocked: open.message };
    try {
      return await inspectOrg(open.client, ctx.names.dashboardOrgName, metricsStore);
    } catch (err) {
      return { lines: [step.does], targets: [], data: empty, blocked: dashboardFailure(err) };
    }
  },
  async run(ctx, planned) {
    const open = await openDashboard(ctx);
    if (!open.ok) return { status: 'failed', message: open.message };
    return repairOrg(open.client, planned.data, ctx.names.dashboardCatalogueUrl);
  },
});
