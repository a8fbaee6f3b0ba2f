import { z } from 'zod';
import type { Target } from '../plan.js';
import type { StepResult } from '../steps/context.js';
import { getDashboard, orgByName, saveDashboard, searchDashboards } from './api.js';
import { DashboardError, type DashboardClient } from './client.js';
import { cpuFilterEdits, type QueryEdit } from './cpu-panels.js';
import { findPlatformDashboard, platformDashboards } from './platform-dashboards.js';

const editSchema = z.object({ panelId: z.number(), panelTitle: z.string(), refId: z.string(), before: z.string(), after: z.string() });

/** The dashboards to save, each pinned at the version the plan read, with each query's edit. */
export const cpuFilterSchema = z.object({
  orgId: z.number().int(),
  dashboards: z.array(z.object({ uid: z.string(), title: z.string(), version: z.number().int(), folderId: z.number().int(), edits: z.array(editSchema) })),
});
/** What the CPU filter fix will save. */
export type CpuFilterData = z.infer<typeof cpuFilterSchema>;

const editLine = (title: string, e: QueryEdit) => `"${title}" › panel "${e.panelTitle}" (id ${e.panelId}) query ${e.refId}: ${e.before} → ${e.after}`;
const sameEdits = (a: readonly QueryEdit[], b: readonly QueryEdit[]) => JSON.stringify(a.map((e) => [e.panelId, e.refId, e.before, e.after])) === JSON.stringify(b.map((e) => [e.panelId, e.refId, e.before, e.after]));

/** Read-only: the platform's dashboards in the organisation, and each CPU query that holds the filter. */
export async function inspectCpuFilter(c: DashboardClient, orgName: string): Promise<{ data: CpuFilterData; lines: string[]; targets: Target[]; blocked?: string }> {
  const org = await orgByName(c, orgName);
  if (!org) return { data: { orgId: 0, dashboards: [] }, lines: [], targets: [], blocked: `The dashboard organisation "${orgName}" does not exist, so there are no dashboards to edit; repair it first with dashboards-missing.` };
  const hits = await searchDashboards(c, org.id);
  const found = platformDashboards.map((d) => findPlatformDashboard(hits, d)).filter((h) => h !== undefined);
  if (found.length === 0) return { data: { orgId: org.id, dashboards: [] }, lines: [], targets: [], blocked: `None of the platform's four dashboards is in organisation "${orgName}"; import them first with dashboards-missing.` };
  const dashboards: CpuFilterData['dashboards'] = [];
  const lines: string[] = [];
  for (const hit of found) {
    const d = await getDashboard(c, org.id, hit.uid);
    if (!d) continue;
    const edits = cpuFilterEdits(d.dashboard);
    if (edits.length > 0) dashboards.push({ uid: hit.uid, title: hit.title, version: d.version, folderId: d.folderId, edits });
    lines.push(...edits.map((e) => editLine(hit.title, e)));
  }
  if (dashboards.length === 0) lines.push(`No CPU panel of ${found.map((h) => `"${h.title}"`).join(', ')} filters on image!="": nothing to change, this step will be skipped.`);
  else lines.push('Memory panels and every other matcher are left as they are.');
  const targets = dashboards.map((d): Target => ({ kind: 'Dashboard', namespace: orgName, name: d.title, uid: d.uid, state: `version ${d.version}`, pin: `version ${d.version}` }));
  return { data: { orgId: org.id, dashboards }, lines, targets };
}

/** Saves each planned dashboard at its pinned version, stopping at the first one someone else changed. */
export async function removeCpuFilter(c: DashboardClient, data: CpuFilterData): Promise<StepResult> {
  if (data.dashboards.length === 0) return { status: 'skipped', message: 'No CPU panel query filters on image!="": nothing was changed.' };
  const details: string[] = [];
  const stop = (why: string): StepResult => (details.length === 0 ? { status: 'changed', message: `${why} Nothing was saved.` } : { status: 'failed', message: `${why} The dashboards before it were saved; plan again for the rest.`, details });
  try {
    for (const planned of data.dashboards) {
      const now = await getDashboard(c, data.orgId, planned.uid);
      if (!now) return stop(`Dashboard "${planned.title}" is gone since the plan.`);
      if (now.version !== planned.version) return stop(`Dashboard "${planned.title}" was saved by someone else since the plan (version ${planned.version} → ${now.version}).`);
      const edits = cpuFilterEdits(now.dashboard, true);
      if (!sameEdits(edits, planned.edits)) return stop(`The CPU queries of dashboard "${planned.title}" are not what the plan showed.`);
      const saved = await saveDashboard(c, data.orgId, { ...now.dashboard, version: planned.version }, planned.folderId, "platform-medic: remove image!='' from the CPU panels (guide 7.11)");
      if ('refused' in saved) return stop(`Dashboard "${planned.title}" was not saved: the dashboard answered 412 ${saved.refused}${saved.message ? ` (${saved.message})` : ''}, so someone changed it meanwhile.`);
      details.push(`saved "${planned.title}" (version ${planned.version} → ${saved.saved}): ${edits.length} CPU quer${edits.length === 1 ? 'y' : 'ies'} edited`);
    }
    for (const planned of data.dashboards) {
      const after = await getDashboard(c, data.orgId, planned.uid);
      const left = after ? cpuFilterEdits(after.dashboard) : [];
      if (!after || left.length > 0) return { status: 'failed', message: `After saving, dashboard "${planned.title}" ${after ? 'still has the filter in a CPU query' : 'cannot be read back'}.`, details };
    }
    return { status: 'done', message: `Removed image!="" from the CPU queries of ${data.dashboards.length} dashboard(s); memory panels unchanged.`, details };
  } catch (err) {
    if (!(err instanceof DashboardError)) throw err;
    return { status: 'failed', message: err.message, details };
  }
}
