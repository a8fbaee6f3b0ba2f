/**
 * The simulated platform's metrics dashboard: its HTTP API for the calls of guide section 4 and entries
 * 5, 8 and 11, with the real server's (Grafana's) status codes and JSON shapes (sources in ./routes.ts).
 * It serves the API under `/grafana` as the platform's in-cluster address does, checks basic auth like
 * the real server (401 {"message":"Invalid username or password"}), keeps per-organisation state,
 * records every call without its Authorization header, and also serves the public dashboard
 * catalogue's downloads, so that the demo repairs the dashboards offline. Tests use it as their fake.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalogueDownloads } from './catalogue.js';
import { answerQuery, type Series } from './metrics-store.js';
import { route, type RouteOptions } from './routes.js';
import { DashboardState, type Answer, type DashboardOrg } from './state.js';

/** One call as the server saw it; never the Authorization header. */
export interface RecordedDashboardCall {
  readonly method: string;
  /** Path under the API root (`/api/orgs`), or the catalogue path; with the query string. */
  readonly path: string;
  readonly orgHeader?: string;
  readonly contentType?: string;
  readonly body?: unknown;
  readonly status: number;
}

/** How the dashboard server starts. */
export interface DashboardServerOptions {
  /** The admin password the server accepts (a real one takes it from the platform secret at its first start). */
  readonly password: string;
  readonly user?: string;
  /** See RouteOptions; default 409. */
  readonly staleVersionStatus?: 409 | 500;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** The server's state at start; default a fresh server's (only "Main Org."). */
  readonly state?: DashboardState;
  /** The cluster's metrics store: a data source at `url` reaches these series through the data source proxy. */
  readonly metrics?: { readonly url: string; series(): readonly Series[] };
}

/** Runs before a call is answered (after auth), e.g. to make a concurrent edit land just before it. */
export type CallHook = (call: { method: string; path: string; state: DashboardState }) => void;

/** The running dashboard server. */
export interface DashboardServer {
  /** `http://127.0.0.1:PORT/grafana`: what `dashboardUrl` is set to. */
  readonly url: string;
  /** `http://127.0.0.1:PORT/catalogue/api/dashboards`: what `dashboardCatalogueUrl` is set to. */
  readonly catalogueUrl: string;
  readonly state: DashboardState;
  calls(): RecordedDashboardCall[];
  /** Changes the password the server accepts (a rotated password). */
  setPassword(password: string): void;
  /** Adds a hook run before each call; returns a function removing it. */
  beforeCall(hook: CallHook): () => void;
  /** The organisation of that name, if any. */
  orgNamed(name: string): DashboardOrg | undefined;
  close(): Promise<void>;
}

/** An address without its trailing slashes; a loop, as `/\/+$/` takes quadratic time on a long run of slashes. */
function withoutTrailingSlashes(address: string): string {
  let end = address.length;
  while (end > 0 && address[end - 1] === '/') end--;
  return address.slice(0, end);
}

const API_ROOT = '/grafana';
const CATALOGUE_ROOT = '/catalogue/api/dashboards';

async function readJson(req: IncomingMessage): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function send(res: ServerResponse, a: Answer): void {
  if (a.body === undefined) return void res.writeHead(a.status, { 'Content-Length': 0 }).end();
  const plain = typeof a.body === 'string';
  const text = plain ? (a.body as string) : JSON.stringify(a.body);
  res.writeHead(a.status, { 'Content-Type': plain ? 'text/plain; charset=utf-8' : 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startDashboardServer(options: DashboardServerOptions): Promise<DashboardServer> {
  const state = options.state ?? new DashboardState();
  const calls: RecordedDashboardCall[] = [];
  const hooks = new Set<CallHook>();
  const user = options.user ?? 'admin';
  let password = options.password;
  const metrics = options.metrics;
  const sameAddress = (a: string, b: string) => withoutTrailingSlashes(a) === withoutTrailingSlashes(b);
  const routeOptions: RouteOptions = {
    staleVersionStatus: options.staleVersionStatus ?? 409,
    ...(metrics ? { proxy: (ds, path, query) => (sameAddress(ds.url, metrics.url) ? answerQuery(path, query, metrics.series()) : undefined) } : {}),
  };

  function authorised(header: string | undefined): boolean {
    const m = /^Basic (.+)$/.exec(header ?? '');
    if (!m) return false;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    return decoded === `${user}:${password}`;
  }

  async function answer(req: IncomingMessage, url: URL, body: unknown): Promise<Answer> {
    if (url.pathname.startsWith(`${CATALOGUE_ROOT}/`)) {
      const m = /^\/(\d+)\/revisions\/(\d+)\/download$/.exec(url.pathname.slice(CATALOGUE_ROOT.length));
      const definition = m && req.method === 'GET' ? catalogueDownloads[`${m[1]}/${m[2]}`] : undefined;
      return definition ? { status: 200, body: definition } : { status: 404, body: { message: 'Not found' } };
    }
    if (!url.pathname.startsWith(`${API_ROOT}/api/`)) return { status: 404, body: { message: 'Not found' } };
    if (!req.headers.authorization) return { status: 401, body: { message: 'Unauthorized' } };
    if (!authorised(req.headers.authorization)) return { status: 401, body: { message: 'Invalid username or password' } };
    const header = req.headers['x-grafana-org-id'];
    const orgId = typeof header === 'string' && header !== '' ? Number(header) : state.currentOrgId;
    const org = state.org(orgId);
    if (!org) return { status: 401, body: { message: 'Authentication error' } };
    const path = url.pathname.slice(API_ROOT.length);
    for (const hook of hooks) hook({ method: req.method ?? 'GET', path, state });
    return route(state, { method: req.method ?? 'GET', path, query: url.searchParams, org, body }, routeOptions);
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://dashboard');
      const parsed = await readJson(req);
      const a: Answer = parsed.ok ? await answer(req, url, parsed.body) : { status: 400, body: { message: 'bad request data' } };
      const orgHeader = req.headers['x-grafana-org-id'];
      calls.push({
        method: req.method ?? 'GET',
        path: `${url.pathname.startsWith(API_ROOT) ? url.pathname.slice(API_ROOT.length) : url.pathname}${url.search}`,
        ...(typeof orgHeader === 'string' ? { orgHeader } : {}),
        ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
        ...(parsed.ok && parsed.body !== undefined ? { body: parsed.body } : {}),
        status: a.status,
      });
      send(res, a);
    })().catch((e: unknown) => send(res, { status: 500, body: { message: `dashboard error: ${String(e)}` } }));
  });
  // An address it cannot listen on (a name that does not resolve, another machine's address) is an error to
  // reject with, not an 'error' event nobody listens to, which ends the process with a trace.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const base = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    url: `${base}${API_ROOT}`,
    catalogueUrl: `${base}${CATALOGUE_ROOT}`,
    state,
    calls: () => calls.map((c) => ({ ...c })),
    setPassword(next) {
      password = next;
    },
    beforeCall(hook) {
      hooks.add(hook);
      return () => hooks.delete(hook);
    },
    orgNamed: (name) => state.orgs.find((o) => o.name === name),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
