import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { timingSafeEqual } from 'node:crypto';
import type { AdmissionCaches } from './admission.js';
import { decodeBody, readBody } from './body.js';
import { connect, connectSubresources } from './connect.js';
import { ignoredDeleteQuery } from './delete-options.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, serverVersion } from './discovery.js';
import { SimApiError, statusErrors } from './errors.js';
import { openApiDocument, openApiIndex } from './openapi.js';
import type { PodRuntime } from './pod-runtime.js';
import { findServedKind, servedCustomKinds } from './custom-resources.js';
import { authorize, forbiddenReason } from './rbac.js';
import type { SimPolicy } from './rbac.js';
import { parseResourcePath } from './request-info.js';
import { resourceKinds } from './resources.js';
import type { ResourceRequest } from './request-info.js';
import * as rest from './rest.js';
import type { ApiCall, ApiResult } from './rest.js';
import type { ObjectStore } from './store.js';
import type { PodTermination } from './termination.js';
import { serveWatch } from './watch.js';
import type { OpenWatch } from './watch.js';
import { selfSignedCertificate } from './tls-cert.js';

/** One served request, for tests that assert what a client actually asked for. */
export interface RequestRecord {
  method: string;
  path: string;
  /** The query string without the leading `?`, e.g. `labelSelector=app%3Ddevtron`. */
  query: string;
  status: number;
  /**
   * DeleteOptions the query carried but the server did not read, because the request also had a body
   * (a real server reads one or the other, never both): a client relying on them is wrong on a real cluster.
   */
  ignoredQuery?: string[];
}

/**
 * Requests the API server's flow control refuses with 429 (as an overloaded kube-apiserver does): the next
 * `requests` that `applies` to, each told to come back after `retryAfterSeconds`.
 */
export interface Throttle {
  requests: number;
  retryAfterSeconds: number;
  applies?: (method: string, path: string) => boolean;
}

/** What the HTTP face needs: where to listen, the token to demand, the state, the current RBAC policy and what pods log. */
export interface ApiServerOptions {
  host: string;
  port: number;
  token: string;
  store: ObjectStore;
  policy: () => SimPolicy | undefined;
  /** What pods log (their `/log` subresource). */
  pods: PodRuntime;
  /** How deleted pods terminate. */
  termination: PodTermination;
  /** The informer caches admission plugins read (they lag behind the store). */
  admission: AdmissionCaches;
  log?: (line: string) => void;
  /**
   * Annotations left out of every object served (reads, lists, watches): the simulator's own
   * bookkeeping, which a real cluster would not show to a client.
   */
  hiddenAnnotations?: readonly string[];
}

/** A JSON.stringify replacer that leaves out the named annotation keys. */
export function hidingAnnotations(keys: readonly string[] | undefined): ((key: string, value: unknown) => unknown) | undefined {
  if (!keys || keys.length === 0) return undefined;
  const hidden = new Set(keys);
  return (key, value) => (hidden.has(key) ? undefined : value);
}

/**
 * How much request line and headers the server reads: kube-apiserver's http.Server has
 * `MaxHeaderBytes: 1 << 20` (k8s.io/apiserver/pkg/server/secure_serving.go), and Go's net/http reads up to
 * 4 KiB beyond it before refusing. Node's default (16 KiB) refused URLs a real cluster serves.
 */
const maxHeaderBytes = (1 << 20) + 4096;

/**
 * A request that cannot be parsed, answered as Go's net/http answers it for kube-apiserver (server.go):
 * plain text, the status line repeated as the body, and the connection closed. Headers over the limit
 * are "431 Request Header Fields Too Large"; other malformed requests "400 Bad Request".
 */
function answerUnparsable(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const text = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${text}`);
}

/**
 * The HTTP face of the simulated cluster: bearer-token authentication, RBAC, discovery, and the REST verbs,
 * answering with the API server's JSON shapes and Status errors.
 *
 * One port speaks both plain HTTP and TLS (told apart by the first byte, 0x16 being a TLS handshake):
 * plain HTTP is the simple way in for tests, while kubectl never sends credentials over plain HTTP, so the
 * kubeconfig points at the TLS side with this server's self-signed certificate as its CA.
 */
export class SimApiServer {
  private readonly front: Server | ReturnType<typeof createNetServer>;
  private readonly plain: Server;
  private readonly tls: ReturnType<typeof createTlsServer>;
  private readonly sockets = new Set<Socket>();
  private readonly watches = new Set<OpenWatch>();
  readonly records: RequestRecord[] = [];
  readonly certificatePem: string;
  /** Set by `throttle`; cleared when its requests are spent. */
  private throttling: Throttle | undefined;

  constructor(private readonly options: ApiServerOptions) {
    const listener: RequestListener = (req, res) => void this.handle(req, res);
    const cert = selfSignedCertificate(options.host);
    this.certificatePem = cert.certPem;
    this.plain = createServer({ maxHeaderSize: maxHeaderBytes }, listener);
    this.tls = createTlsServer({ key: cert.keyPem, cert: cert.certPem, maxHeaderSize: maxHeaderBytes }, listener);
    this.plain.on('clientError', answerUnparsable);
    this.tls.on('clientError', answerUnparsable);
    this.front = createNetServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.once('data', (first: Buffer) => {
        socket.pause();
        socket.unshift(first);
        (first[0] === 0x16 ? this.tls : this.plain).emit('connection', socket);
        process.nextTick(() => socket.resume());
      });
    });
  }

  /** Starts listening; returns the plain-HTTP and the TLS base URL of the same port. */
  async listen(): Promise<{ http: string; https: string }> {
    await new Promise<void>((resolve, reject) => {
      this.front.once('error', reject);
      this.front.listen(this.options.port, this.options.host, () => resolve());
    });
    const address = this.front.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return { http: `http://${host}:${address.port}`, https: `https://${host}:${address.port}` };
  }

  /** Refuses the next requests as flow control would (Throttle); a later call replaces an earlier one. */
  throttle(throttle: Throttle | undefined): void {
    this.throttling = throttle && throttle.requests > 0 ? { ...throttle } : undefined;
  }

  /**
   * Flow control runs after authentication and before authorisation (k8s.io/apiserver/pkg/server/config.go,
   * DefaultBuildHandlerChain), so an unauthenticated request is told 401, not 429.
   */
  private admitFlow(method: string, path: string): void {
    const t = this.throttling;
    if (!t || (t.applies && !t.applies(method, path))) return;
    if (--t.requests <= 0) this.throttling = undefined;
    const refusal = statusErrors.tooManyRequests();
    refusal.headers = { 'Retry-After': String(t.retryAfterSeconds) };
    throw refusal;
  }

  async close(): Promise<void> {
    for (const watch of [...this.watches]) watch.end();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.front.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    const record: RequestRecord = { method, path: url.pathname, query: url.search.replace(/^\?/, ''), status: 0 };
    this.records.push(record);
    try {
      this.authenticate(req);
      this.admitFlow(method, url.pathname);
      const store = this.options.store;
      const resource = parseResourcePath(method, url.pathname, url.searchParams, (g, v, p) => findServedKind(store, g, v, p));
      if (!resource) {
        record.status = this.send(res, this.discovery(method, url.pathname, req));
        return;
      }
      this.authorise(resource);
      // As in kube-apiserver, the body is read by the handler, after authentication and authorisation.
      const contentType = (req.headers['content-type'] ?? 'application/json').split(';')[0]?.trim() ?? '';
      const body = decodeBody(await readBody(req), resource, contentType);
      if (resource.verb === 'update') this.keepHidden(resource, body);
      const call: ApiCall = { req: resource, query: url.searchParams, accept: req.headers.accept, contentType, body };
      if (connectSubresources.includes(resource.subresource)) {
        record.status = this.send(res, connect(this.options.store, resource));
        return;
      }
      if (resource.verb === 'watch') {
        const watch = serveWatch(this.options.store, resource, url.searchParams, req.headers.accept, res, hidingAnnotations(this.options.hiddenAnnotations));
        this.watches.add(watch);
        res.on('close', () => this.watches.delete(watch));
        record.status = 200;
        return;
      }
      if (resource.verb === 'delete' || resource.verb === 'deletecollection') {
        const ignored = ignoredDeleteQuery(url.searchParams, body);
        if (ignored.length > 0) record.ignoredQuery = ignored;
      }
      record.status = this.send(res, this.dispatch(call));
    } catch (error) {
      const failure = error instanceof SimApiError ? error : new SimApiError(500, 'InternalError', `Internal error occurred: ${String(error)}`);
      if (!(error instanceof SimApiError)) this.options.log?.(`internal error on ${method} ${url.pathname}: ${String(error)}`);
      const answer: ApiResult =
        failure.plainText === undefined
          ? { status: failure.code, body: failure.status }
          : { status: failure.code, body: failure.plainText, contentType: 'text/plain; charset=utf-8', headers: { ...(failure.headers ?? {}), 'X-Content-Type-Options': 'nosniff' } };
      record.status = this.send(res, answer);
    } finally {
      this.options.log?.(`${method} ${url.pathname}${url.search} ${record.status}`);
    }
  }

  /**
   * A client that read an object without its hidden annotations and writes it back (PUT) does not mean
   * to remove them: they are copied from the stored object, as if the client had never seen them.
   */
  private keepHidden(r: ResourceRequest, body: unknown): void {
    const hidden = this.options.hiddenAnnotations ?? [];
    const meta = (body as { metadata?: { annotations?: Record<string, string> } } | undefined)?.metadata;
    if (hidden.length === 0 || !meta) return;
    const stored = this.options.store.get(r.kind, r.namespace || undefined, r.name)?.metadata.annotations ?? {};
    for (const key of hidden) if (stored[key] !== undefined && meta.annotations?.[key] === undefined) meta.annotations = { ...(meta.annotations ?? {}), [key]: stored[key] };
  }

  private authenticate(req: IncomingMessage): void {
    const header = req.headers.authorization ?? '';
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7).trim() : '');
    const expected = Buffer.from(this.options.token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw statusErrors.unauthorized();
  }

  private authorise(r: ResourceRequest): void {
    const policy = this.options.policy();
    if (!policy) return;
    const name = r.name || (r.selectedName ?? '');
    const attrs = { verb: r.verb, apiGroup: r.kind.group, resource: r.kind.plural, subresource: r.subresource, name, namespace: r.namespace };
    if (authorize(policy, attrs)) return;
    throw statusErrors.forbidden(r.kind, r.kind.plural, name || undefined, forbiddenReason(policy.subject, attrs));
  }

  private dispatch(call: ApiCall): ApiResult {
    const store = this.options.store;
    const named = call.req.name !== '';
    switch (call.req.verb) {
      case 'get':
        return rest.get(store, call, this.options.pods);
      case 'list':
        return rest.list(store, call);
      case 'create':
        return rest.create(store, call);
      case 'update':
        if (!named) throw statusErrors.methodNotAllowed();
        return rest.update(store, call, this.options.admission);
      case 'patch':
        if (!named) throw statusErrors.methodNotAllowed();
        return rest.patch(store, call, this.options.admission);
      case 'delete':
        return rest.remove(store, call, this.options.termination);
      case 'deletecollection':
        return rest.removeCollection(store, call, this.options.termination);
      default:
        throw statusErrors.methodNotAllowed();
    }
  }

  /** Discovery and the other non-resource paths every client touches. */
  private discovery(method: string, pathname: string, req: IncomingMessage): ApiResult {
    if (method !== 'GET' && method !== 'HEAD') throw statusErrors.methodNotAllowed();
    const parts = pathname.split('/').filter((p) => p !== '');
    const served = [...resourceKinds, ...servedCustomKinds(this.options.store)];
    const found = (() => {
      if (pathname === '/version' || pathname === '/version/') return serverVersion;
      if (parts.length === 1 && parts[0] === 'api') return apiVersions(req.headers.host ?? '127.0.0.1');
      if (parts.length === 1 && parts[0] === 'apis') return apiGroupList(served);
      if (parts.length === 2 && parts[0] === 'api') return apiResourceList(served, '', parts[1] ?? '');
      if (parts.length === 2 && parts[0] === 'apis') return apiGroup(served, parts[1] ?? '');
      if (parts.length === 3 && parts[0] === 'apis') return apiResourceList(served, parts[1] ?? '', parts[2] ?? '');
      if (parts[0] === 'openapi' && parts[1] === 'v3') return parts.length === 2 ? openApiIndex(served) : openApiDocument(served, parts.slice(2).join('/'));
      return undefined;
    })();
    if (found) return { status: 200, body: found };
    if (['/healthz', '/livez', '/readyz'].includes(pathname)) return { status: 200, body: 'ok', contentType: 'text/plain' };
    // A group or version no CRD serves falls through the apiextensions discovery handlers to the not-found handler.
    if (parts[0] === 'apis') throw statusErrors.pageNotFound();
    throw statusErrors.pathNotFound();
  }

  /**
   * The body as JSON without the hidden annotations. A replacer slows JSON.stringify down several times
   * over on a large list, so it runs only when a hidden key is there to remove.
   */
  private json(body: unknown): string {
    const plain = JSON.stringify(body);
    const hidden = this.options.hiddenAnnotations ?? [];
    return hidden.some((key) => plain.includes(JSON.stringify(key))) ? JSON.stringify(body, hidingAnnotations(hidden)) : plain;
  }

  private send(res: ServerResponse, result: ApiResult): number {
    const contentType = result.contentType ?? 'application/json';
    const payload = contentType === 'application/json' ? this.json(result.body) : String(result.body);
    res.writeHead(result.status, { ...(result.headers ?? {}), 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) });
    res.end(payload);
    return result.status;
  }
}
