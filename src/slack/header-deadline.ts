import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection may take to deliver a request's headers. Slack sends them at once; Node's own
 * headersTimeout is 60 s and is checked only every 30 s, so a sender dripping header bytes (slow loris)
 * held a connection and its buffered headers for up to 90 s.
 */
export const headerDeadlineMs = 3_000;

/**
 * Closes every connection of `server` that has not delivered a request's headers within `ms` of opening,
 * or, kept alive, within the server's keep-alive time plus `ms` of its last answer (an idle kept-alive
 * connection is Node's to close at its keep-alive time; one still dripping headers then is closed here).
 */
export function boundHeaderTime(server: Server, ms: number = headerDeadlineMs): void {
  const waiting = new WeakMap<Socket, NodeJS.Timeout>();
  const expect = (socket: Socket, within: number) => {
    clearTimeout(waiting.get(socket));
    const timer = setTimeout(() => socket.destroy(), within);
    timer.unref();
    waiting.set(socket, timer);
  };
  server.on('connection', (socket: Socket) => {
    expect(socket, ms);
    socket.once('close', () => clearTimeout(waiting.get(socket)));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    clearTimeout(waiting.get(socket));
    res.once('finish', () => {
      if (!socket.destroyed) expect(socket, server.keepAliveTimeout + ms);
    });
  });
}
