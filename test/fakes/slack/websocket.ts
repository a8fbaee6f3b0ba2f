/**
 * The server side of a WebSocket (RFC 6455), just what Slack's Socket Mode uses: the opening
 * handshake, text frames, ping/pong and the closing handshake, on a socket node:http hands over at
 * `upgrade`. Written here rather than taken from a package so the fake can also misbehave the way a
 * network does (a connection dropped without a close frame) and so no test dependency is added.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** RFC 6455 §1.3: the key is concatenated with this GUID, hashed with SHA-1 and base64-encoded. */
const HANDSHAKE_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

const OP = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** Refuses an upgrade with a plain HTTP answer, as a server does before the handshake. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
}

/** Server frames are never masked (§5.1). */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const head = length < 126 ? Buffer.alloc(2) : length < 0x10000 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (length < 126) head[1] = length;
  else if (length < 0x10000) {
    head[1] = 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, payload]);
}

/** What a connection tells its owner. */
export interface WebSocketHandlers {
  text(message: string): void;
  /** The connection ended: `clean` when both close frames were exchanged, false when it was dropped. */
  closed(clean: boolean, code: number | undefined): void;
  /** A ping arrived (already answered with a pong). */
  ping?(): void;
}

/** One accepted WebSocket connection. */
export class WebSocketConnection {
  private buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closeSent = false;
  private closeReceived = false;
  private ended = false;

  constructor(
    private readonly socket: Duplex,
    private readonly handlers: WebSocketHandlers,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => this.finish(this.closeSent && this.closeReceived, undefined));
  }

  /** Completes the opening handshake, or refuses a request that is not a WebSocket upgrade. */
  static accept(req: IncomingMessage, socket: Duplex, handlers: WebSocketHandlers): WebSocketConnection | undefined {
    const key = req.headers['sec-websocket-key'];
    if (req.headers.upgrade?.toLowerCase() !== 'websocket' || typeof key !== 'string' || req.headers['sec-websocket-version'] !== '13') {
      refuseUpgrade(socket, 400, 'Bad Request');
      return undefined;
    }
    const accept = createHash('sha1').update(key + HANDSHAKE_GUID).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    return new WebSocketConnection(socket, handlers);
  }

  get open(): boolean {
    return !this.ended && !this.closeSent && !this.closeReceived;
  }

  sendText(message: string): void {
    if (this.open) this.socket.write(frame(OP.text, Buffer.from(message, 'utf8')));
  }

  ping(data = 'ping'): void {
    if (this.open) this.socket.write(frame(OP.ping, Buffer.from(data)));
  }

  /** Starts the closing handshake; the peer answers with its own close frame. */
  close(code = 1000, reason = ''): void {
    if (this.ended || this.closeSent) return;
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2);
    this.closeSent = true;
    this.socket.write(frame(OP.close, payload));
    if (this.closeReceived) this.socket.end();
  }

  /** Drops the TCP connection with no close frame, as a failing load balancer or network does. */
  drop(): void {
    this.socket.destroy();
  }

  private finish(clean: boolean, code: number | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.handlers.closed(clean, code);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const parsed = this.nextFrame();
      if (!parsed) return;
      this.handle(parsed.fin, parsed.opcode, parsed.payload);
    }
  }

  /** One complete frame off the buffer, unmasked; undefined until all its bytes arrived. */
  private nextFrame(): { fin: boolean; opcode: number; payload: Buffer } | undefined {
    const b = this.buffer;
    if (b.length < 2) return undefined;
    const fin = (b[0]! & 0x80) !== 0;
    const opcode = b[0]! & 0x0f;
    const masked = (b[1]! & 0x80) !== 0;
    let length = b[1]! & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (b.length < 4) return undefined;
      length = b.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (b.length < 10) return undefined;
      length = Number(b.readBigUInt64BE(2));
      offset = 10;
    }
    const maskLength = masked ? 4 : 0;
    if (b.length < offset + maskLength + length) return undefined;
    const payload = Buffer.from(b.subarray(offset + maskLength, offset + maskLength + length));
    if (masked) {
      const mask = b.subarray(offset, offset + 4);
      for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ mask[i % 4]!;
    }
    this.buffer = b.subarray(offset + maskLength + length);
    return { fin, opcode, payload };
  }

  private handle(fin: boolean, opcode: number, payload: Buffer): void {
    if (opcode === OP.ping) {
      if (!this.ended && !this.closeSent) this.socket.write(frame(OP.pong, payload));
      this.handlers.ping?.();
      return;
    }
    if (opcode === OP.pong) return;
    if (opcode === OP.close) {
      this.closeReceived = true;
      const code = payload.length >= 2 ? payload.readUInt16BE(0) : undefined;
      // Answer the peer's close with ours (§5.5.1), then the server ends the TCP connection (§7.1.1).
      if (!this.closeSent) {
        this.closeSent = true;
        this.socket.write(frame(OP.close, payload.subarray(0, 2)));
      }
      this.socket.end();
      this.finish(true, code);
      return;
    }
    if (opcode === OP.text || opcode === OP.binary || opcode === OP.continuation) {
      this.fragments.push(payload);
      if (!fin) return;
      const message = Buffer.concat(this.fragments).toString('utf8');
      this.fragments = [];
      this.handlers.text(message);
    }
  }
}
