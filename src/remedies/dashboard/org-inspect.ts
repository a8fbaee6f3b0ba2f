import { z } from 'zod';
import type { Target } from '../plan.js';
import { getDataSource, listDataSources, listOrgs, searchDashboards, type DataSource } from './api.js';
import type { DashboardClient } from './client.js';
import { defaultDataSourceName, findPlatformDashboard, platformDashboards } from './platform-dashboards.js';

/** The organisation App Details reads (`/grafana?orgId=2`); another id works for the API but not for it. */
export const appDetailsOrgId = 2;

/** What the repair will do, decided read-only at plan time; the run does exactly this. */
export const orgRepairSchema = z.object({
  orgName: z.string(),
  /** The organisation's id when it exists at plan time; null when the run creates it. */
  orgId: z.number().int().nullable(),
  metricsStore: z.string(),
  dataSource: z.discriminatedUnion('action', [
    z.object({ action: z.literal('create') }),
    z.object({ action: z.literal('update'), id: z.number().int(), urlBefore: z.string() }),
    z.object({ action: z.literal('none'), id: z.number().int() }),
  ]),
  imports: z.array(z.object({ catalogueId: z.number().int(), revision: z.number().int(), uid: z.string(), title: z.string() })),
});
/** What the repair will do. */
export type OrgRepairData = z.infer<typeof orgRepairSchema>;

/** Nothing to create or change: the step is skipped. */
export const nothingToDo = (d: OrgRepairData) => d.orgId !== null && d.dataSource.action === 'none' && d.imports.length === 0;

/** The default data source of an organisation: the one named as the guide names it, else the default prometheus one. */
export function platformDataSource(list: readonly DataSource[]): DataSource | undefined {
  return list.find((d) => d.name === defaultDataSourceName) ?? list.find((d) => d.isDefault && d.type === 'prometheus');
}

const shown = (url: string) => (url === '' ? '(no address)' : url);

/** Read-only: which of the organisation, its data source and the four dashboards are missing or wrong. */
export async function inspectOrg(c: DashboardClient, orgName: string, metricsStore: string): Promise<{ data: OrgRepairData; lines: string[]; targets: Target[]; warnings: string[] }> {
  const orgs = await listOrgs(c);
  const org = orgs.find((o) => o.name === orgName);
  const lines: string[] = [];
  const warnings: string[] = [];
  const targets: Target[] = [];
  const all = platformDashboards.map(({ catalogueId, revision, uid, title }) => ({ catalogueId, revision, uid, title }));
  if (!org) {
    const holder = orgs.find((o) => o.id === appDetailsOrgId);
    if (holder) warnings.push(`Organisation ${appDetailsOrgId} already exists as "${holder.name}", so "${orgName}" will get another id; App Details reads organisation ${appDetailsOrgId}.`);
    lines.push(
      `create organisation "${orgName}" on ${c.base} (expected id ${appDetailsOrgId}), switch ${c.user} to it and set its preferences (timezone browser)`,
      `create data source "${defaultDataSourceName}" (prometheus, proxy, default) and set its address: (none) → ${metricsStore}`,
      ...all.map((d) => `import dashboard "${d.title}" (catalogue ${d.catalogueId} revision ${d.revision})`),
    );
    targets.push({ kind: 'DashboardOrganisation', namespace: c.base, name: orgName, uid: 'new', state: 'missing' });
    return { data: { orgName, orgId: null, metricsStore, dataSource: { action: 'create' }, imports: all }, lines, targets, warnings };
  }

  if (org.id !== appDetailsOrgId) warnings.push(`Organisation "${orgName}" has id ${org.id}, but App Details reads organisation ${appDetailsOrgId}.`);
  lines.push(`organisation "${orgName}" exists (id ${org.id}): not created again`);
  const listed = platformDataSource(await listDataSources(c, org.id));
  const ds = listed && (await getDataSource(c, org.id, listed.id));
  let dataSource: OrgRepairData['dataSource'];
  if (!ds) {
    dataSource = { action: 'create' };
    lines.push(`create data source "${defaultDataSourceName}" (prometheus, proxy, default) and set its address: (none) → ${metricsStore}`);
  } else if (ds.url !== metricsStore || !ds.isDefault) {
    dataSource = { action: 'update', id: ds.id, urlBefore: ds.url };
    lines.push(`data source "${ds.name}" (id ${ds.id}) address: ${shown(ds.url)} → ${metricsStore}${ds.isDefault ? '' : ', and make it the default'}`);
    targets.push({ kind: 'DashboardDataSource', namespace: orgName, name: ds.name, uid: String(ds.id), state: shown(ds.url) });
  } else {
    dataSource = { action: 'none', id: ds.id };
    lines.push(`data source "${ds.name}" (id ${ds.id}) already points at ${metricsStore}: unchanged`);
  }
  const hits = await searchDashboards(c, org.id);
  const imports = all.filter((d) => !findPlatformDashboard(hits, d));
  if (imports.length === 0) lines.push(`the four dashboards are present (${all.map((d) => d.title).join(', ')}): none imported`);
  lines.push(...imports.map((d) => `import missing dashboard "${d.title}" (catalogue ${d.catalogueId} revision ${d.revision})`));
  const data: OrgRepairData = { orgName, orgId: org.id, metricsStore, dataSource, imports };
  if (nothingToDo(data)) lines.push('Everything is already in place: this step will be skipped.');
  return { data, lines, targets, warnings };
}
