/**
 * Slack's Socket Mode, on the fake's own port: `apps.connections.open` (app-level token only, in the
 * Authorization header) hands out a single-use `ws://…/link/?ticket=…` address; a connection to it
 * gets `hello`; envelopes `{envelope_id, type, payload, accepts_response_payload, retry_attempt,
 * retry_reason}` go down it and the app answers each with `{envelope_id, payload?}`. Slack's own
 * connection churn is here too: `disconnect` with reason `refresh_requested` (the app is expected to
 * open a new connection) and a connection that simply drops. As documented in
 * https://api.slack.com/apis/connections/socket-implement and apps.connections.open's reference.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiResult } from './methods.js';
import { refuseUpgrade, WebSocketConnection } from './websocket.js';

/** The kinds of envelope Slack sends over Socket Mode. */
export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

/** An envelope as sent, with what the app answered and how long it took. */
export interface DeliveredEnvelope {
  envelope_id: string;
  type: EnvelopeType;
  payload: Record<string, unknown>;
  accepts_response_payload: boolean;
  retry_attempt: number;
  retry_reason: string;
  /** Which connection (1, 2, …) carried it. */
  connection: number;
  sentAt: number;
}

/** An acknowledgement the app sent: the envelope id, and for commands and some interactions a payload. */
export interface Acknowledgement {
  envelope_id: string;
  payload?: Record<string, unknown>;
  connection: number;
  at: number;
  /** Milliseconds from sending the envelope to this acknowledgement (high resolution). */
  ms: number;
}

/** One WebSocket connection the app opened. */
export interface SocketConnection {
  id: number;
  openedAt: number;
  /** How it ended: a clean close handshake, or dropped; undefined while open. */
  ended?: 'closed' | 'dropped';
  /** Pings the app sent (the fake answers each with a pong). */
  pings: number;
}

/** Options of one delivery. */
export interface DeliverOptions {
  /** Default a fresh UUID; give the same id again to redeliver, as Slack retries an unacknowledged envelope. */
  envelopeId?: string;
  retryAttempt?: number;
  retryReason?: string;
  /** Default true for slash commands and interactions, false for events. */
  acceptsResponsePayload?: boolean;
}

const TICKET_LIFETIME_MS = 30_000;

/** The Socket Mode side of the fake Slack. */
export class SocketModeHub {
  readonly connections: SocketConnection[] = [];
  readonly envelopes: DeliveredEnvelope[] = [];
  readonly acks: Acknowledgement[] = [];
  /** Messages the app sent that are not acknowledgements of a known envelope (should stay empty). */
  readonly stray: string[] = [];
  private readonly live = new Map<number, WebSocketConnection>();
  private readonly tickets = new Map<string, number>();
  private readonly sentAt = new Map<string, bigint>();
  private readonly waiting = new Map<string, (ack: Acknowledgement) => void>();
  private pinger: NodeJS.Timeout | undefined;
  /** Set by revokeAppToken(): every later apps.connections.open with the app-level token is refused. */
  private revoked = false;

  constructor(
    private readonly deps: { appToken: string; botToken: string; appId: string; baseUrl: () => string; changed: () => void },
  ) {}

  /** apps.connections.open: the app-level token, in the Authorization header (a POST parameter is an error). */
  open(authorization: string | undefined, args: Record<string, unknown>): ApiResult {
    const token = authorization === undefined ? undefined : /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
    if (token === undefined || token === '') return { ok: false, error: typeof args.token === 'string' ? 'invalid_auth' : 'not_authed' };
    if (token === this.deps.botToken) return { ok: false, error: 'not_allowed_token_type' };
    if (token !== this.deps.appToken) return { ok: false, error: 'invalid_auth' };
    if (this.revoked) return { ok: false, error: 'token_revoked' };
    const ticket = randomUUID();
    this.tickets.set(ticket, Date.now() + TICKET_LIFETIME_MS);
    const ws = this.deps.baseUrl().replace(/^http/, 'ws');
    return { ok: true, url: `${ws}/link/?ticket=${ticket}&app_id=${this.deps.appId}` };
  }

  /** node:http `upgrade`: accepts a connection to an unused, unexpired ticket. */
  upgrade(req: IncomingMessage, socket: Duplex): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ticket = url.searchParams.get('ticket') ?? '';
    const expires = this.tickets.get(ticket);
    if (url.pathname !== '/link/' || expires === undefined || expires < Date.now()) {
      refuseUpgrade(socket, 401, 'Unauthorized');
      return;
    }
    // A ticket is good for one connection.
    this.tickets.delete(ticket);
    const record: SocketConnection = { id: this.connections.length + 1, openedAt: Date.now(), pings: 0 };
    const connection = WebSocketConnection.accept(req, socket, {
      text: (message) => this.acknowledge(record.id, message),
      ping: () => {
        record.pings++;
        this.deps.changed();
      },
      closed: (clean) => {
        record.ended = clean ? 'closed' : 'dropped';
        this.live.delete(record.id);
        this.deps.changed();
      },
    });
    if (!connection) return;
    this.connections.push(record);
    this.live.set(record.id, connection);
    connection.sendText(
      JSON.stringify({
        type: 'hello',
        num_connections: this.live.size,
        debug_info: { host: 'applink-fake-1', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.deps.appId },
      }),
    );
    // Slack pings its end of the connection; the client watches for those pings.
    this.pinger ??= setInterval(() => this.live.forEach((c) => c.ping()), 5_000).unref();
    this.deps.changed();
  }

  /** The open connections' ids, oldest first. */
  openConnections(): number[] {
    return [...this.live.keys()];
  }

  /**
   * Sends an envelope down the newest open connection (Slack picks one of the app's connections).
   * Throws when the app has none open: Slack would fail the user's action.
   */
  deliver(type: EnvelopeType, payload: Record<string, unknown>, options: DeliverOptions = {}): DeliveredEnvelope {
    const id = [...this.live.keys()].pop();
    if (id === undefined) throw new Error('fake Slack: no Socket Mode connection is open');
    const envelope: DeliveredEnvelope = {
      envelope_id: options.envelopeId ?? randomUUID(),
      type,
      payload,
      accepts_response_payload: options.acceptsResponsePayload ?? type !== 'events_api',
      retry_attempt: options.retryAttempt ?? 0,
      retry_reason: options.retryReason ?? (options.retryAttempt ? 'timeout' : ''),
      connection: id,
      sentAt: Date.now(),
    };
    this.envelopes.push(envelope);
    this.sentAt.set(envelope.envelope_id, process.hrtime.bigint());
    const { connection: _c, sentAt: _s, ...wire } = envelope;
    this.live.get(id)!.sendText(JSON.stringify(wire));
    this.deps.changed();
    return envelope;
  }

  /** Resolves with the next acknowledgement of `envelopeId` (for callers that keep many in flight). */
  acknowledged(envelopeId: string): Promise<Acknowledgement> {
    return new Promise((resolve) => this.waiting.set(envelopeId, resolve));
  }

  /** Asks the app to reconnect, as Slack does before recycling the host holding the connection. */
  refresh(reason: 'refresh_requested' | 'warning' | 'link_disabled' = 'refresh_requested'): void {
    for (const c of this.live.values()) c.sendText(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-fake-1' } }));
  }

  /**
   * Revokes the app-level token, as its workspace's admin or the app's owner can at any time: the open
   * connections are told `link_disabled` and closed, and apps.connections.open answers `token_revoked`
   * from now on (https://api.slack.com/methods/apps.connections.open: "token_revoked").
   */
  revokeAppToken(): void {
    this.revoked = true;
    this.refresh('link_disabled');
    for (const c of this.live.values()) c.drop();
  }

  /** Drops every open connection without a close frame. */
  drop(): void {
    for (const c of this.live.values()) c.drop();
  }

  close(): void {
    clearInterval(this.pinger);
    for (const c of this.live.values()) c.drop();
  }

  private acknowledge(connection: number, message: string): void {
    let parsed: { envelope_id?: unknown; payload?: unknown };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      this.stray.push(message);
      return;
    }
    const id = parsed.envelope_id;
    const sent = typeof id === 'string' ? this.sentAt.get(id) : undefined;
    if (typeof id !== 'string' || sent === undefined) {
      this.stray.push(message);
      this.deps.changed();
      return;
    }
    const ms = Number(process.hrtime.bigint() - sent) / 1e6;
    const payload = parsed.payload;
    const hasPayload = typeof payload === 'object' && payload !== null && Object.keys(payload).length > 0;
    const ack: Acknowledgement = { envelope_id: id, ...(hasPayload ? { payload: payload as Record<string, unknown> } : {}), connection, at: Date.now(), ms };
    this.acks.push(ack);
    this.waiting.get(id)?.(ack);
    this.waiting.delete(id);
    this.deps.changed();
  }
}
