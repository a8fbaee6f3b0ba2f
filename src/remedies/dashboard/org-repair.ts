import type { StepResult } from '../steps/context.js';
import {
  createDataSource,
  createOrg,
  getDataSource,
  importDashboard,
  listDataSources,
  listOrgs,
  orgByName,
  searchDashboards,
  setPreferences,
  updateDataSourceUrl,
  useOrg,
} from './api.js';
import { DashboardError, downloadFromCatalogue, type DashboardClient } from './client.js';
import { appDetailsOrgId, nothingToDo, platformDataSource, type OrgRepairData } from './org-inspect.js';
import { defaultDataSourceName, findPlatformDashboard, platformDashboards } from './platform-dashboards.js';

/** The organisation's id: the planned one, or the one just created (or found, when the name was taken meanwhile). */
async function ensureOrg(c: DashboardClient, data: OrgRepairData, details: string[]): Promise<number> {
  if (data.orgId !== null) return data.orgId;
  const created = await createOrg(c, data.orgName);
  let id: number;
  if (created === 'taken') {
    // 409 "Organization name taken": created since the plan (or by a retried run); use it, create nothing.
    const found = await orgByName(c, data.orgName);
    if (!found) throw new DashboardError('http', `The dashboard says organisation "${data.orgName}" exists (409) but cannot find it by name.`);
    id = found.id;
    details.push(`organisation "${data.orgName}" already existed (409 Organization name taken): using its id ${id}`);
  } else {
    id = created.orgId;
    details.push(`created organisation "${data.orgName}" (id ${id})`);
  }
  if (id !== appDetailsOrgId) details.push(`note: the organisation's id is ${id}, not ${appDetailsOrgId}; the calls used ${id}, but App Details reads organisation ${appDetailsOrgId}`);
  await useOrg(c, id);
  await setPreferences(c, id);
  details.push(`switched ${c.user} to organisation ${id} and set its preferences`);
  return id;
}

/** Sets the address with the version just read; a stale version (someone saved meanwhile) is re-read and retried once. */
async function pointDataSource(c: DashboardClient, orgId: number, id: number, url: string, details: string[]): Promise<void> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const ds = await getDataSource(c, orgId, id);
    if ((await updateDataSourceUrl(c, ds, url)) === 'updated') {
      details.push(`data source "${ds.name}" (id ${id}) address set to ${url}${attempt === 2 ? ' (after re-reading a newer version)' : ''}`);
      return;
    }
  }
  throw new DashboardError('http', `Data source ${id} kept changing under the update ("Reload new version and try again" twice); someone else is editing it. Nothing else was changed after that.`);
}

async function ensureDataSource(c: DashboardClient, orgId: number, data: OrgRepairData, details: string[]): Promise<void> {
  const planned = data.dataSource;
  if (planned.action === 'none') return;
  let id: number;
  if (planned.action === 'update') id = planned.id;
  else {
    const created = await createDataSource(c, orgId, defaultDataSourceName);
    if (created === 'exists') {
      const found = platformDataSource(await listDataSources(c, orgId));
      if (!found) throw new DashboardError('http', `The dashboard says data source "${defaultDataSourceName}" exists (409) but does not list it.`);
      id = found.id;
      details.push(`data source "${defaultDataSourceName}" already existed (409): updating it (id ${id})`);
    } else {
      id = created.id;
      details.push(`created data source "${defaultDataSourceName}" (id ${id})`);
    }
  }
  await pointDataSource(c, orgId, id, data.metricsStore, details);
}

async function importMissing(c: DashboardClient, orgId: number, data: OrgRepairData, catalogueUrl: string, details: string[]): Promise<void> {
  if (data.imports.length === 0) return;
  const present = await searchDashboards(c, orgId);
  for (const d of data.imports) {
    const definition = await downloadFromCatalogue(catalogueUrl, d.catalogueId, d.revision);
    const uid = typeof definition.uid === 'string' ? definition.uid : d.uid;
    const title = typeof definition.title === 'string' ? definition.title : d.title;
    if (findPlatformDashboard(present, { ...d, uid, title })) {
      details.push(`dashboard "${title}" is already there: not imported again`);
      continue;
    }
    await importDashboard(c, orgId, definition, defaultDataSourceName);
    details.push(`imported dashboard "${title}" (catalogue ${d.catalogueId} revision ${d.revision})`);
  }
}

/** What is still wrong after the run: the organisation, the default data source's address, the four dashboards. */
async function verify(c: DashboardClient, orgId: number, data: OrgRepairData): Promise<string[]> {
  const problems: string[] = [];
  if (!(await listOrgs(c)).some((o) => o.id === orgId)) problems.push(`organisation ${orgId} is not listed`);
  const ds = platformDataSource(await listDataSources(c, orgId));
  if (!ds || ds.url !== data.metricsStore || !ds.isDefault) problems.push(`the default data source does not point at ${data.metricsStore}${ds ? ` (it has ${ds.url || 'no address'})` : ''}`);
  const hits = await searchDashboards(c, orgId);
  const missing = platformDashboards.filter((d) => !findPlatformDashboard(hits, d));
  if (missing.length > 0) problems.push(`dashboards not found: ${missing.map((d) => d.title).join(', ')}`);
  return problems;
}

/** Carries out the planned repair in the guide's order, then verifies it. */
export async function repairOrg(c: DashboardClient, data: OrgRepairData, catalogueUrl: string): Promise<StepResult> {
  if (nothingToDo(data)) return { status: 'skipped', message: `Organisation "${data.orgName}", its data source and the four dashboards were already in place; nothing was changed.` };
  const details: string[] = [];
  try {
    const orgId = await ensureOrg(c, data, details);
    await ensureDataSource(c, orgId, data, details);
    await importMissing(c, orgId, data, catalogueUrl, details);
    const problems = await verify(c, orgId, data);
    if (problems.length > 0) return { status: 'failed', message: `The calls succeeded but the check after them failed: ${problems.join('; ')}.`, details };
    return { status: 'done', message: `Organisation ${orgId} ("${data.orgName}") has its default data source at ${data.metricsStore} and the four dashboards.`, details };
  } catch (err) {
    if (!(err instanceof DashboardError)) throw err;
    return { status: 'failed', message: err.message, details };
  }
}
