import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { webApi } from '@slack/bolt';

type FetchFunction = webApi.FetchFunction;
type FetchResponse = Awaited<ReturnType<FetchFunction>>;
type FetchInit = NonNullable<Parameters<FetchFunction>[1]>;

/** The headers of an answer, as the Web API client and Bolt's respond() read them. */
class AnswerHeaders {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(', ') : v;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw)) yield [name, this.get(name)!];
  }
}

/** An answer read whole (Slack's answers are small JSON documents). */
class Answer implements FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: AnswerHeaders;

  constructor(
    readonly url: string,
    res: IncomingMessage,
    private readonly body: Buffer,
  ) {
    this.status = res.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    this.statusText = res.statusMessage ?? '';
    this.headers = new AnswerHeaders(res.headers);
  }

  async text(): Promise<string> {
    return this.body.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.body.toString('utf8')) as unknown;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.body).buffer;
  }
}

const redirects = new Set([301, 302, 303, 307, 308]);

/** Without a signal, how long a connection may stay silent before the call fails (the built-in fetch's default). */
const idleTimeoutMs = 300_000;

/**
 * A fetch for the bot's calls to Slack (the Web API, response_urls) over node:http(s) agents that keep
 * their connections open. Node's built-in fetch costs about three times the CPU of a plain request
 * per call (measured: ~580 against ~190 µs for a chat.postMessage on loopback, client and server
 * together), and every fix makes several calls on the event loop that acknowledges commands.
 * What this does not do itself — a body that is a form with files, headers that are not a plain
 * record, a redirect to follow — it hands to the built-in fetch, so the answer is always fetch's.
 */
export function keepAliveFetch(fallback: FetchFunction = globalThis.fetch): { fetch: FetchFunction; close(): void } {
  const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };
  const close = () => Object.values(agents).forEach((a) => a.destroy());
  return { fetch: slackFetch, close };
  function slackFetch(input: string | URL, init: FetchInit = {}): Promise<FetchResponse> {
    const url = typeof input === 'string' ? new URL(input) : input;
    const { body, signal } = init;
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || (body !== undefined && typeof body !== 'string')) return fallback(input, init);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const href = url.href;
    return new Promise<FetchResponse>((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const headers: Record<string, string | number> = { ...(init.headers ?? {}) };
      if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
      const req = send(url, { method: init.method ?? 'GET', headers, agent: agents[url.protocol as 'http:' | 'https:'] }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          signal?.removeEventListener('abort', abort);
          const status = res.statusCode ?? 0;
          if (redirects.has(status)) {
            // fetch's rules for redirects (follow, error, manual) are fetch's to apply.
            if (init.redirect === 'error') return reject(new TypeError(`fetch failed: redirect ${status} from ${href} while redirect is "error"`));
            return resolve(fallback(input, init));
          }
          resolve(new Answer(href, res, Buffer.concat(chunks)));
        });
      });
      function fail(err: Error): void {
        signal?.removeEventListener('abort', abort);
        reject(err);
      }
      function abort(): void {
        req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      }
      signal?.addEventListener('abort', abort, { once: true });
      req.setTimeout(idleTimeoutMs, () => req.destroy(new Error(`no answer from ${url.host} within ${idleTimeoutMs / 1000} s`)));
      req.on('error', fail);
      req.end(body);
    });
  }
}
