import { Agent, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { sign } from '../../test/support/slack-requests.js';

/** One signed POST to a Slack app's `/slack/events`, timed from the request's start to its last byte. */

/** What happened to one request. */
export interface Outcome {
  /** Milliseconds from handing the request to the socket to the end of the response. */
  readonly ms: number;
  /** performance.now() and Date.now() just before the request started, for matching with other clocks. */
  readonly sentAt: number;
  readonly sentWall: number;
  readonly status?: number;
  readonly error?: string;
}

/** A keep-alive agent for one target: connections are reused, as Slack's own sender does. */
export function keepAliveAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 64 });
}

/** POSTs a form body with a valid v0 signature; never rejects, and gives up (error `timeout`) after `timeoutMs`. */
export function postSigned(port: number, agent: Agent, body: string, secret: string, timeoutMs: number): Promise<Outcome> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': Buffer.byteLength(body),
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': sign(secret, timestamp, body),
  };
  return new Promise((resolve) => {
    const sentWall = Date.now();
    const sentAt = performance.now();
    let settled = false;
    const finish = (o: { status?: number; error?: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ms: performance.now() - sentAt, sentAt, sentWall, ...o });
    };
    const req = request({ host: '127.0.0.1', port, path: '/slack/events', method: 'POST', agent, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => finish({ status: res.statusCode }));
      res.on('error', (err) => finish({ error: err.message }));
    });
    const timer = setTimeout(() => {
      finish({ error: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => finish({ error: err.message }));
    req.end(body);
  });
}

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
