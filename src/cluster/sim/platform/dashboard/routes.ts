/**
 * The calls of guide section 4 and entry 11, answered with the dashboard server's (Grafana's) status
 * codes and JSON shapes. Sources, checked with the search tool:
 * - grafana/grafana pkg/api/org.go: POST /api/orgs → 200 {"orgId","message":"Organization created"},
 *   409 {"message":"Organization name taken"}; user/using → "Active organization changed" or 401
 *   "Not a valid organization"; org preferences → "Preferences updated".
 * - pkg/api/datasources.go and pkg/models/datasource.go: POST → {"datasource","id","message":"Datasource
 *   added","name"}, 409 "data source with the same name already exists"; PUT → "Datasource updated";
 *   the stale-version refusal when the sent version is older than the stored one ("Failed to update
 *   datasource. Reload new version and try again": 500 on 7.x servers, 409 on current ones and in the
 *   guide's entry 8); the stored version becomes the sent version + 1.
 * - docs/sources/http_api/dashboard.md: POST /api/dashboards/db → {"id","uid","url","status":"success",
 *   "version","slug"}, 412 {"message":"The dashboard has been changed by someone else","status":
 *   "version-mismatch"}, 412 "name-exists"; GET /api/dashboards/uid/:uid → {dashboard, meta}; 404
 *   "Dashboard not found". pkg/plugins/dashboards.go PluginDashboardInfoDTO for /api/dashboards/import.
 * - docs/sources/http_api/data_source.md and folder_dashboard_search.md for the list and search shapes.
 */
import { DashboardState, slugOf, type Answer, type DashboardOrg, type StoredDataSource } from './state.js';

type Json = Record<string, unknown>;

/** What a route sees of a request, after authentication. */
export interface RouteRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The organisation of the request: header `x-grafana-org-id`, else the user's current one. */
  org: DashboardOrg;
  body: unknown;
}

/** Per-server behaviour a test chooses. */
export interface RouteOptions {
  /** Status of the stale-version refusal of PUT /api/datasources/:id; default 409 (the guide's), 500 as 7.x servers. */
  staleVersionStatus: 409 | 500;
  /**
   * What the data source's address answers to a proxied GET (`/api/datasources/proxy/:id/<path>`);
   * without it, or when the address does not answer, the dashboard's reverse proxy says 502 with no body.
   */
  proxy?: (ds: StoredDataSource, path: string, query: URLSearchParams) => Answer | undefined;
}

/** The dashboard's answer when the data source's address does not answer its proxy (pkg/util/proxyutil: 502, no body). */
export const badGateway: Answer = { status: 502, body: undefined };

const ok = (body: unknown): Answer => ({ status: 200, body });
const err = (status: number, message: string, extra: Json = {}): Answer => ({ status, body: { message, ...extra } });
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const listedDataSource = ({ version: _version, uid: _uid, ...ds }: StoredDataSource) => ({ ...ds, typeLogoUrl: `public/app/plugins/datasource/${ds.type}/img/logo.svg`, password: '', user: '', database: '', readOnly: false });
const fullDataSource = (ds: StoredDataSource) => ({ ...ds, password: '', user: '', database: '', basicAuthUser: '', basicAuthPassword: '', withCredentials: false, secureJsonFields: {}, readOnly: false });

function orgRoutes(state: DashboardState, r: RouteRequest): Answer | undefined {
  if (r.method === 'GET' && r.path === '/api/orgs') return ok(state.orgs.map(({ id, name }) => ({ id, name })));
  const byName = /^\/api\/orgs\/name\/([^/]+)$/.exec(r.path);
  if (r.method === 'GET' && byName) {
    const org = state.orgs.find((o) => o.name === decodeURIComponent(byName[1]!));
    return org ? ok({ id: org.id, name: org.name, address: { address1: '', address2: '', city: '', zipCode: '', state: '', country: '' } }) : err(404, 'Organization not found');
  }
  if (r.method === 'POST' && r.path === '/api/orgs') {
    const name = isObject(r.body) ? r.body.name : undefined;
    if (typeof name !== 'string' || name === '') return err(400, 'bad request data');
    if (state.orgs.some((o) => o.name === name)) return err(409, 'Organization name taken');
    return ok({ orgId: state.createOrg(name).id, message: 'Organization created' });
  }
  const using = /^\/api\/user\/using\/(\d+)$/.exec(r.path);
  if (r.method === 'POST' && using) {
    const org = state.org(Number(using[1]));
    if (!org) return err(401, 'Not a valid organization');
    state.currentOrgId = org.id;
    return ok({ message: 'Active organization changed' });
  }
  if (r.method === 'PUT' && r.path === '/api/org/preferences') {
    if (!isObject(r.body)) return err(400, 'bad request data');
    r.org.preferences = { ...r.body };
    return ok({ message: 'Preferences updated' });
  }
  return undefined;
}

function dataSourceRoutes(state: DashboardState, r: RouteRequest, options: RouteOptions): Answer | undefined {
  if (r.method === 'GET' && r.path === '/api/datasources') return ok(r.org.dataSources.map(listedDataSource));
  if (r.method === 'POST' && r.path === '/api/datasources') {
    if (!isObject(r.body) || typeof r.body.name !== 'string' || typeof r.body.type !== 'string') return err(400, 'bad request data');
    if (r.org.dataSources.some((d) => d.name === (r.body as Json).name)) return err(409, 'data source with the same name already exists');
    const ds = state.addDataSource(r.org, { name: r.body.name, type: r.body.type, access: String(r.body.access ?? 'proxy'), url: String(r.body.url ?? ''), isDefault: r.body.isDefault === true });
    return ok({ datasource: fullDataSource(ds), id: ds.id, message: 'Datasource added', name: ds.name });
  }
  const proxied = /^\/api\/datasources\/proxy\/(\d+)(\/.*)$/.exec(r.path);
  if (proxied && r.method === 'GET') {
    const target = r.org.dataSources.find((d) => d.id === Number(proxied[1]));
    if (!target) return err(404, 'Unable to find datasource');
    return options.proxy?.(target, proxied[2]!, r.query) ?? badGateway;
  }
  const one = /^\/api\/datasources\/(\d+)$/.exec(r.path);
  if (!one) return undefined;
  const ds = r.org.dataSources.find((d) => d.id === Number(one[1]));
  if (!ds) return err(404, 'Data source not found');
  if (r.method === 'GET') return ok(fullDataSource(ds));
  if (r.method !== 'PUT') return undefined;
  if (!isObject(r.body) || typeof r.body.name !== 'string') return err(400, 'bad request data');
  const sent = typeof r.body.version === 'number' ? r.body.version : 0;
  if (sent !== 0 && sent < ds.version) return err(options.staleVersionStatus, 'Failed to update datasource. Reload new version and try again');
  // The update replaces the whole data source: a field left out (isDefault, say) is reset.
  Object.assign(ds, { name: r.body.name, type: String(r.body.type ?? ds.type), access: String(r.body.access ?? 'proxy'), url: String(r.body.url ?? ''), basicAuth: r.body.basicAuth === true, isDefault: r.body.isDefault === true, jsonData: isObject(r.body.jsonData) ? r.body.jsonData : {}, version: sent + 1 });
  if (ds.isDefault) r.org.dataSources.forEach((d) => (d.isDefault = d === ds));
  return ok({ datasource: fullDataSource(ds), id: ds.id, message: 'Datasource updated', name: ds.name });
}

/** Replaces `${DS_X}` placeholders of an exported definition with the chosen data source names (what an import does). */
export function bindInputs(model: Json, inputs: unknown): Json {
  let text = JSON.stringify(model);
  for (const i of Array.isArray(inputs) ? inputs.filter(isObject) : []) {
    if (typeof i.name === 'string' && typeof i.value === 'string') text = text.split(`\${${i.name}}`).join(i.value);
  }
  const { __inputs: _i, __requires: _r, ...rest } = JSON.parse(text) as Json;
  return rest;
}

function dashboardRoutes(state: DashboardState, r: RouteRequest): Answer | undefined {
  if (r.method === 'GET' && r.path === '/api/search') {
    const q = (r.query.get('query') ?? '').toLowerCase();
    const hits = r.org.dashboards.filter((d) => d.title.toLowerCase().includes(q)).sort((a, b) => a.title.localeCompare(b.title));
    return ok(hits.map((d) => ({ id: d.id, uid: d.uid, title: d.title, uri: `db/${slugOf(d.title)}`, url: `/grafana/d/${d.uid}/${slugOf(d.title)}`, slug: '', type: 'dash-db', tags: d.model.tags ?? [], isStarred: false })));
  }
  const byUid = /^\/api\/dashboards\/uid\/([^/]+)$/.exec(r.path);
  if (r.method === 'GET' && byUid) {
    const d = r.org.dashboards.find((x) => x.uid === decodeURIComponent(byUid[1]!));
    if (!d) return err(404, 'Dashboard not found');
    const meta = { type: 'db', canSave: true, canEdit: true, canAdmin: true, canStar: true, slug: slugOf(d.title), url: `/grafana/d/${d.uid}/${slugOf(d.title)}`, expires: '0001-01-01T00:00:00Z', createdBy: 'admin', updatedBy: 'admin', version: d.version, hasAcl: false, isFolder: false, folderId: d.folderId, folderTitle: 'General', folderUrl: '', provisioned: false };
    return ok({ dashboard: structuredClone(d.model), meta });
  }
  const save = r.method === 'POST' && (r.path === '/api/dashboards/db' || r.path === '/api/dashboards/import');
  if (!save) return undefined;
  if (!isObject(r.body) || !isObject(r.body.dashboard)) return err(400, 'bad request data');
  const importing = r.path === '/api/dashboards/import';
  const model = importing ? bindInputs(r.body.dashboard, r.body.inputs) : r.body.dashboard;
  const overwrite = r.body.overwrite === true;
  const folderId = typeof r.body.folderId === 'number' ? r.body.folderId : 0;
  const existing = r.org.dashboards.find((d) => d.uid === model.uid);
  if (existing && !overwrite && model.version !== existing.version) return err(412, 'The dashboard has been changed by someone else', { status: 'version-mismatch' });
  const sameTitle = r.org.dashboards.find((d) => d.title === model.title && d.folderId === folderId && d !== existing);
  if (sameTitle && !overwrite) return err(412, 'A dashboard with the same name in the folder already exists', { status: 'name-exists' });
  const saved = state.saveDashboard(r.org, model, folderId, existing);
  const slug = slugOf(saved.title);
  if (!importing) return ok({ id: saved.id, uid: saved.uid, url: `/grafana/d/${saved.uid}/${slug}`, status: 'success', version: saved.version, slug });
  return ok({ uid: saved.uid, pluginId: '', title: saved.title, imported: true, importedUri: `db/${slug}`, importedUrl: `/grafana/d/${saved.uid}/${slug}`, slug, dashboardId: saved.id, folderId, importedRevision: 1, revision: 1, description: '', path: '', removed: false });
}

/** Answers an authenticated request, or 404 {"message":"Not found"} for a call the server does not know. */
export function route(state: DashboardState, r: RouteRequest, options: RouteOptions): Answer {
  return orgRoutes(state, r) ?? dataSourceRoutes(state, r, options) ?? dashboardRoutes(state, r) ?? err(404, 'Not found');
}
