import type { ClusterGateway, SecretData } from '../cluster/gateway.js';
import type { PlatformNames } from '../platform-names.js';
import { countSeries, getDashboard, listDataSources, listOrgs, searchDashboards, type DashboardModel, type DataSource, type Org, type SearchHit } from '../remedies/dashboard/api.js';
import { DashboardClient, DashboardError } from '../remedies/dashboard/client.js';
import { appDetailsOrgId, platformDataSource } from '../remedies/dashboard/org-inspect.js';
import { connectDatabase } from '../remedies/database/connect.js';
import { databaseFailure, type DatabaseFailure } from '../remedies/database/errors.js';
import { platformSecretKey } from '../remedies/steps/secret-key.js';
import { Unreadable, type DatabaseSessions, type Read, type Snapshot, type UnknownReason } from './detectors/detector.js';

/**
 * The scan's reads of the platform's own services: the metrics dashboard (its HTTP API, as the admin
 * user) and the database (one SQL query), each with the password the platform secret holds. The secret
 * is read once for both, each dashboard call and the query are made once per scan however many
 * detectors ask, and a service that cannot be reached or refuses the password makes only the detectors
 * that need it `unknown`. Nothing read here is kept beyond the scan; the passwords reach only the
 * Authorization header and the database client's options.
 */

/** The part of the snapshot these reads answer. */
export type PlatformSnapshot = Pick<Snapshot, 'dashboardOrgs' | 'dashboardDataSources' | 'dashboards' | 'dashboardModel' | 'seriesCount' | 'databaseSessions'>;

type Outcome<T> = { ok: true; value: T } | { ok: false; error: Unreadable };

/** Each call to the dashboard or the database waits at most this long: a scan must not hang on one service. */
const serviceTimeoutMs = 5_000;

/** Why the dashboard could not tell, the way a person acts on it. */
function dashboardUnreadable(err: unknown, fallback: (err: unknown) => Unreadable): Unreadable {
  if (!(err instanceof DashboardError)) return fallback(err);
  const status = err.status ?? 0;
  const reason: UnknownReason =
    err.code === 'unauthorized' || status === 403
      ? 'forbidden'
      : err.code === 'unreachable' || err.code === 'timeout' || status === 502 || status === 503 || status === 504
        ? 'unreachable'
        : status === 404
          ? 'not-installed'
          : 'error';
  return new Unreadable(reason, err.message);
}

/** PostgreSQL's refusals of the user or its password are `forbidden`; no answer at the address is `unreachable`. */
function databaseUnreadable(failure: DatabaseFailure): Unreadable {
  if (failure.unreachable) return new Unreadable('unreachable', failure.message);
  return new Unreadable(['28P01', '28000', '42501'].includes(failure.code) ? 'forbidden' : 'error', failure.message);
}

/** Every database that accepts connections and its sessions, the scan's own left out. */
const sessionsQuery = `SELECT d.datname AS database, count(a.pid)::int AS sessions,
  coalesce((array_agg(DISTINCT a.application_name) FILTER (WHERE a.application_name <> ''))[1:3], '{}') AS applications
  FROM pg_database d LEFT JOIN pg_stat_activity a ON a.datid = d.oid AND a.pid <> pg_backend_pid()
  WHERE d.datallowconn GROUP BY d.datname ORDER BY d.datname`;

async function readSessions(names: PlatformNames, secret: SecretData | undefined): Promise<DatabaseSessions[]> {
  const key = platformSecretKey(secret, names, names.databasePasswordKey);
  if (!key.ok) throw new Unreadable('not-installed', key.message);
  const open = await connectDatabase(names, key, 'platform-medic-doctor', serviceTimeoutMs);
  if (!open.ok) throw databaseUnreadable(open.failure);
  try {
    const rows = await open.db.client.query<DatabaseSessions>(sessionsQuery);
    return rows.rows.map((r) => ({ database: r.database, sessions: Number(r.sessions), applications: r.applications }));
  } catch (err) {
    throw databaseUnreadable(databaseFailure(err, open.db.place, 'read the sessions of pg_stat_activity'));
  } finally {
    await open.db.client.end().catch(() => undefined);
  }
}

interface DashboardAnswers {
  orgs: Outcome<Org[]>;
  dataSources: Outcome<DataSource[] | undefined>;
  dashboards: Outcome<SearchHit[] | undefined>;
  models: Map<string, Outcome<DashboardModel | undefined>>;
  counts: Map<string, Outcome<number>>;
}

async function readDashboard(
  names: PlatformNames,
  secret: Outcome<SecretData | undefined>,
  wants: { dataSources: boolean; dashboards: boolean; models: Set<string>; selectors: Set<string> },
  fallback: (err: unknown) => Unreadable,
): Promise<DashboardAnswers> {
  const all = (error: Unreadable): DashboardAnswers => ({
    orgs: { ok: false, error },
    dataSources: { ok: false, error },
    dashboards: { ok: false, error },
    models: new Map([...wants.models].map((uid) => [uid, { ok: false, error }])),
    counts: new Map([...wants.selectors].map((s) => [s, { ok: false, error }])),
  });
  if (!secret.ok) return all(secret.error);
  const key = platformSecretKey(secret.value, names, names.dashboardPasswordKey);
  if (!key.ok) return all(new Unreadable('not-installed', key.message));
  const client = new DashboardClient({ baseUrl: names.dashboardUrl, user: names.dashboardUser, password: key.value, passwordFrom: key.where, timeoutMs: serviceTimeoutMs });
  const attempt = async <T>(fn: () => Promise<T>): Promise<Outcome<T>> => {
    try {
      return { ok: true, value: await fn() };
    } catch (err) {
      return { ok: false, error: dashboardUnreadable(err, fallback) };
    }
  };
  const orgs = await attempt(() => listOrgs(client));
  if (!orgs.ok) return all(orgs.error);
  // App Details reads organisation 2 (`/grafana?orgId=2`); without it there is nothing else to read.
  const org = orgs.value.find((o) => o.id === appDetailsOrgId);
  const none = <T>(): Outcome<T | undefined> => ({ ok: true, value: undefined });
  const orgId = appDetailsOrgId;
  const wantSources = wants.dataSources || wants.selectors.size > 0;
  const [dataSources, dashboards, models] = await Promise.all([
    org && wantSources ? attempt(() => listDataSources(client, orgId)) : none<DataSource[]>(),
    org && wants.dashboards ? attempt(() => searchDashboards(client, orgId)) : none<SearchHit[]>(),
    Promise.all([...wants.models].map(async (uid) => [uid, org ? await attempt(async () => (await getDashboard(client, orgId, uid))?.dashboard) : none<DashboardModel>()] as const)),
  ]);
  const source = dataSources.ok ? platformDataSource(dataSources.value ?? []) : undefined;
  const counts = await Promise.all(
    [...wants.selectors].map(async (selector): Promise<readonly [string, Outcome<number>]> => {
      if (!dataSources.ok) return [selector, dataSources];
      if (!source) {
        const why = org ? `organisation ${orgId} has no default data source` : `organisation ${orgId} does not exist`;
        return [selector, { ok: false, error: new Unreadable('not-installed', `The metrics store cannot be asked: ${why} on the metrics dashboard.`) }];
      }
      return [selector, await attempt(() => countSeries(client, orgId, source.id, selector))];
    }),
  );
  return { orgs, dataSources, dashboards, models: new Map(models), counts: new Map(counts) };
}

/** Reads what the dashboard and database reads ask for, each once; see the module comment. */
export async function readPlatform(gateway: ClusterGateway, names: PlatformNames, reads: readonly Read[], fallback: (err: unknown) => Unreadable): Promise<PlatformSnapshot> {
  const wants = { dashboard: false, dataSources: false, dashboards: false, models: new Set<string>(), selectors: new Set<string>(), database: false };
  for (const r of reads) {
    if ('database' in r) wants.database = true;
    if (!('dashboard' in r)) continue;
    wants.dashboard = true;
    if (r.dashboard === 'dataSources') wants.dataSources = true;
    else if (r.dashboard === 'dashboards') wants.dashboards = true;
    else if (r.dashboard === 'model') wants.models.add(r.uid);
    else if (r.dashboard === 'seriesCount') wants.selectors.add(r.selector);
  }
  let secret: Outcome<SecretData | undefined> = { ok: true, value: undefined };
  if (wants.dashboard || wants.database) {
    try {
      secret = { ok: true, value: await gateway.readSecret(names.platformNamespace, names.platformSecret) };
    } catch (err) {
      secret = { ok: false, error: fallback(err) };
    }
  }
  const [dashboard, sessions] = await Promise.all([
    wants.dashboard ? readDashboard(names, secret, wants, fallback) : undefined,
    wants.database
      ? secret.ok
        ? readSessions(names, secret.value).then(
            (value): Outcome<DatabaseSessions[]> => ({ ok: true, value }),
            (err: unknown): Outcome<DatabaseSessions[]> => ({ ok: false, error: err instanceof Unreadable ? err : fallback(err) }),
          )
        : ({ ok: false, error: secret.error } as const)
      : undefined,
  ]);

  const take = <T>(out: Outcome<T> | undefined, what: string): T => {
    if (!out) throw new Error(`a detector read ${what} without declaring it`);
    if (!out.ok) throw out.error;
    return out.value;
  };
  return {
    dashboardOrgs: () => take(dashboard?.orgs, "the dashboard's organisations"),
    dashboardDataSources: () => take(wants.dataSources ? dashboard?.dataSources : undefined, "the dashboard's data sources"),
    dashboards: () => take(wants.dashboards ? dashboard?.dashboards : undefined, "the dashboard's dashboards"),
    dashboardModel: (uid) => take(dashboard?.models.get(uid), `dashboard ${uid}`),
    seriesCount: (selector) => take(dashboard?.counts.get(selector), `the series of ${selector}`),
    databaseSessions: () => take(sessions, "the database's sessions"),
  };
}
