import { z } from 'zod';
import { DashboardError, messageOf, type DashboardClient } from './client.js';

/**
 * The calls of the dashboard repair (guide section 4) and of the CPU filter fix, typed. Shapes are the
 * dashboard server's (Grafana HTTP API): orgs, user/using, org/preferences, datasources, search,
 * dashboards/uid, dashboards/db and dashboards/import; and, for the doctor, one query of a data source
 * through the dashboard's data source proxy. Expected refusals (409, 404, 412) are values.
 */

const orgSchema = z.object({ id: z.number(), name: z.string() });
const dataSourceSchema = z.object({
  id: z.number(),
  orgId: z.number(),
  name: z.string(),
  type: z.string(),
  access: z.string().default('proxy'),
  url: z.string().default(''),
  isDefault: z.boolean().default(false),
  version: z.number().optional(),
});
const searchHitSchema = z.object({ uid: z.string(), title: z.string(), type: z.string().optional(), folderId: z.number().optional() });
const dashboardSchema = z.looseObject({ uid: z.string().optional(), title: z.string().optional(), version: z.number().optional() });
const dashboardAnswerSchema = z.object({ dashboard: dashboardSchema, meta: z.looseObject({ version: z.number().optional(), folderId: z.number().optional() }) });

/** An organisation of the dashboard server. */
export type Org = z.infer<typeof orgSchema>;
/** A data source as the API describes it; `version` only comes with a single read. */
export type DataSource = z.infer<typeof dataSourceSchema>;
/** A dashboard found by search. */
export type SearchHit = z.infer<typeof searchHitSchema>;
/** A dashboard's JSON model, kept whole so that saving it loses nothing. */
export type DashboardModel = z.infer<typeof dashboardSchema>;

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new DashboardError('invalid-response', `The metrics dashboard's answer to ${what} is not what its API documents (${r.error.issues[0]?.path.join('.') ?? ''}: ${r.error.issues[0]?.message}).`);
  return r.data;
}

const enc = encodeURIComponent;

/** The organisations (GET /api/orgs, server admin only). */
export async function listOrgs(c: DashboardClient): Promise<Org[]> {
  return parse(z.array(orgSchema), (await c.call('GET', '/api/orgs')).body, 'GET /api/orgs');
}

/** One organisation by name, or undefined (404 "Organization not found"). */
export async function orgByName(c: DashboardClient, name: string): Promise<Org | undefined> {
  const r = await c.call('GET', `/api/orgs/name/${enc(name)}`, { accept: [200, 404] });
  return r.status === 404 ? undefined : parse(orgSchema, r.body, 'GET /api/orgs/name');
}

/** Creates an organisation: its id, or 'taken' when the name exists (409 "Organization name taken"). */
export async function createOrg(c: DashboardClient, name: string): Promise<{ orgId: number } | 'taken'> {
  const r = await c.call('POST', '/api/orgs', { body: { name }, accept: [200, 409] });
  return r.status === 409 ? 'taken' : parse(z.object({ orgId: z.number() }), r.body, 'POST /api/orgs');
}

/** Switches the user to an organisation (POST /api/user/using/:id). */
export async function useOrg(c: DashboardClient, orgId: number): Promise<void> {
  await c.call('POST', `/api/user/using/${orgId}`);
}

/** The guide's preferences of the organisation: no home dashboard, default theme, browser time zone. */
export async function setPreferences(c: DashboardClient, orgId: number): Promise<void> {
  await c.call('PUT', '/api/org/preferences', { orgId, body: { homeDashboardId: 0, theme: '', timezone: 'browser' } });
}

export async function listDataSources(c: DashboardClient, orgId: number): Promise<DataSource[]> {
  return parse(z.array(dataSourceSchema), (await c.call('GET', '/api/datasources', { orgId })).body, 'GET /api/datasources');
}

/** One data source with its version (needed to update it). */
export async function getDataSource(c: DashboardClient, orgId: number, id: number): Promise<DataSource> {
  return parse(dataSourceSchema, (await c.call('GET', `/api/datasources/${id}`, { orgId })).body, 'GET /api/datasources/:id');
}

/** Creates the default data source of the guide; 'exists' on 409 "data source with the same name already exists". */
export async function createDataSource(c: DashboardClient, orgId: number, name: string): Promise<{ id: number } | 'exists'> {
  const r = await c.call('POST', '/api/datasources', { orgId, body: { name, type: 'prometheus', access: 'proxy', isDefault: true }, accept: [200, 409] });
  return r.status === 409 ? 'exists' : parse(z.object({ id: z.number() }), r.body, 'POST /api/datasources');
}

/**
 * Sets the data source's address, sending the version read before. 'stale' when the server has a newer
 * version: 409 on current servers, 500 with the guide's "Reload new version" message on 7.x ones.
 */
export async function updateDataSourceUrl(c: DashboardClient, ds: DataSource, url: string): Promise<'updated' | 'stale'> {
  const body = { id: ds.id, orgId: ds.orgId, name: ds.name, type: ds.type, access: ds.access, url, basicAuth: false, jsonData: {}, isDefault: true, version: ds.version ?? 0 };
  const r = await c.call('PUT', `/api/datasources/${ds.id}`, { orgId: ds.orgId, body, accept: [200, 409, 500] });
  if (r.status === 200) return 'updated';
  const message = messageOf(r.body);
  if (/reload/i.test(message)) return 'stale';
  throw new DashboardError('http', `PUT /api/datasources/${ds.id} on the metrics dashboard answered ${r.status}${message ? ` (${c.redact(message)})` : ''}.`, r.status);
}

/** The dashboards of an organisation (GET /api/search?type=dash-db). */
export async function searchDashboards(c: DashboardClient, orgId: number): Promise<SearchHit[]> {
  return parse(z.array(searchHitSchema), (await c.call('GET', '/api/search?type=dash-db&limit=5000', { orgId })).body, 'GET /api/search');
}

/** A dashboard with its version and folder, or undefined (404 "Dashboard not found"). */
export async function getDashboard(c: DashboardClient, orgId: number, uid: string): Promise<{ dashboard: DashboardModel; version: number; folderId: number } | undefined> {
  const r = await c.call('GET', `/api/dashboards/uid/${enc(uid)}`, { orgId, accept: [200, 404] });
  if (r.status === 404) return undefined;
  const a = parse(dashboardAnswerSchema, r.body, 'GET /api/dashboards/uid/:uid');
  return { dashboard: a.dashboard, version: a.meta.version ?? a.dashboard.version ?? 0, folderId: a.meta.folderId ?? 0 };
}

/**
 * Saves a dashboard without overwriting: the version in it must still be the server's, else the server
 * answers 412 with status "version-mismatch" (someone saved it since), returned as a value.
 */
export async function saveDashboard(c: DashboardClient, orgId: number, dashboard: DashboardModel, folderId: number, message: string): Promise<{ saved: number } | { refused: string; message: string }> {
  const r = await c.call('POST', '/api/dashboards/db', { orgId, body: { dashboard, folderId, overwrite: false, message }, accept: [200, 412] });
  if (r.status === 412) {
    const status = (r.body as { status?: unknown } | null)?.status;
    return { refused: typeof status === 'string' ? status : 'precondition-failed', message: c.redact(messageOf(r.body)) };
  }
  return { saved: parse(z.object({ version: z.number() }), r.body, 'POST /api/dashboards/db').version };
}

/**
 * Imports a catalogue dashboard the way Dashboards > Manage > Import does: every data source input of
 * the definition (`__inputs`) is bound to the organisation's default data source.
 */
export async function importDashboard(c: DashboardClient, orgId: number, dashboard: Record<string, unknown>, dataSourceName: string): Promise<{ uid: string; title: string }> {
  const declared = Array.isArray(dashboard.__inputs) ? (dashboard.__inputs as { name?: unknown; type?: unknown; pluginId?: unknown }[]) : [];
  const inputs = declared
    .filter((i) => i.type === 'datasource' && typeof i.name === 'string')
    .map((i) => ({ name: i.name, type: 'datasource', pluginId: typeof i.pluginId === 'string' ? i.pluginId : 'prometheus', value: dataSourceName }));
  const r = await c.call('POST', '/api/dashboards/import', { orgId, body: { dashboard: { ...dashboard, id: null }, overwrite: false, inputs, folderId: 0 } });
  const a = parse(z.object({ uid: z.string().default(''), title: z.string(), imported: z.boolean().optional() }), r.body, 'POST /api/dashboards/import');
  return { uid: a.uid, title: a.title };
}

/** Prometheus's answer to an instant query (docs/querying/api.md): a vector of samples, `[time, "value"]`. */
const vectorAnswerSchema = z.object({
  status: z.literal('success'),
  data: z.object({ resultType: z.literal('vector'), result: z.array(z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) })) }),
});

/**
 * How many series a data source of the organisation holds for a selector: `count(<selector>)` asked
 * through the dashboard's data source proxy (GET /api/datasources/proxy/:id/*, which forwards to the data
 * source's address; Grafana answers 502 when that address does not answer). Counting an empty selection
 * gives an empty vector, which is 0.
 */
export async function countSeries(c: DashboardClient, orgId: number, dataSourceId: number, selector: string): Promise<number> {
  const query = `count(${selector})`;
  const r = await c.call('GET', `/api/datasources/proxy/${dataSourceId}/api/v1/query?query=${enc(query)}`, { orgId });
  const answer = parse(vectorAnswerSchema, r.body, `the query ${query}`);
  const value = Number(answer.data.result[0]?.value[1] ?? '0');
  return Number.isFinite(value) ? value : 0;
}
