/**
 * The dashboard server's state: organisations, each with its preferences, data sources and
 * dashboards, and the admin user's current organisation. Ids are allocated server-wide as the real
 * server's database does (org 1 "Main Org." exists from the start, so the first created org is 2).
 */

type Json = Record<string, unknown>;

/** A data source as stored: what GET /api/datasources/:id answers. */
export interface StoredDataSource {
  id: number;
  uid: string;
  orgId: number;
  name: string;
  type: string;
  access: string;
  url: string;
  basicAuth: boolean;
  isDefault: boolean;
  jsonData: Json;
  version: number;
}

/** A dashboard as stored: its JSON model, version and folder. */
export interface StoredDashboard {
  id: number;
  uid: string;
  title: string;
  version: number;
  folderId: number;
  model: Json;
}

/** One organisation of the server. */
export interface DashboardOrg {
  id: number;
  name: string;
  preferences?: Json;
  dataSources: StoredDataSource[];
  dashboards: StoredDashboard[];
}

/** What a handler answers: a status and a JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

export const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The server's state; see the module comment. */
export class DashboardState {
  readonly orgs: DashboardOrg[] = [{ id: 1, name: 'Main Org.', dataSources: [], dashboards: [] }];
  currentOrgId = 1;
  private nextOrgId = 2;
  private nextDataSourceId = 1;
  private nextDashboardId = 1;

  /** Back to a fresh server: only "Main Org.", ids from the start, as on an install whose organisation was never created. */
  reset(): void {
    this.orgs.splice(0, this.orgs.length, { id: 1, name: 'Main Org.', dataSources: [], dashboards: [] });
    this.currentOrgId = 1;
    this.nextOrgId = 2;
    this.nextDataSourceId = 1;
    this.nextDashboardId = 1;
  }

  org(id: number): DashboardOrg | undefined {
    return this.orgs.find((o) => o.id === id);
  }

  createOrg(name: string): DashboardOrg {
    const org: DashboardOrg = { id: this.nextOrgId++, name, dataSources: [], dashboards: [] };
    this.orgs.push(org);
    return org;
  }

  addDataSource(org: DashboardOrg, fields: Partial<StoredDataSource> & { name: string }): StoredDataSource {
    const id = this.nextDataSourceId++;
    const ds: StoredDataSource = { type: 'prometheus', access: 'proxy', url: '', basicAuth: false, isDefault: false, jsonData: {}, version: 1, ...fields, id, uid: `ds${id}uid`, orgId: org.id };
    if (ds.isDefault) org.dataSources.forEach((d) => (d.isDefault = false));
    org.dataSources.push(ds);
    return ds;
  }

  /** Saves a dashboard model: a new one gets version 1, an existing one its version + 1. */
  saveDashboard(org: DashboardOrg, model: Json, folderId: number, existing?: StoredDashboard): StoredDashboard {
    const uid = typeof model.uid === 'string' && model.uid !== '' ? model.uid : `gen${this.nextDashboardId}`;
    const title = typeof model.title === 'string' ? model.title : 'Untitled';
    if (existing) {
      existing.version += 1;
      Object.assign(existing, { title, folderId, model: { ...model, id: existing.id, uid, version: existing.version } });
      return existing;
    }
    const id = this.nextDashboardId++;
    const stored: StoredDashboard = { id, uid, title, version: 1, folderId, model: { ...model, id, uid, version: 1 } };
    org.dashboards.push(stored);
    return stored;
  }
}
