import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterGateway } from '../../src/cluster/gateway.js';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('an API server that accepts connections and never answers', () => {
  it('a call timed out lets go of its connection, so `platform-medic doctor` ends instead of waiting for good', async () => {
    // Given: a server that takes the connection and the request, and says nothing (a hung API server, a black-holing proxy).
    const closed: Promise<void>[] = [];
    server = createServer((socket) => {
      sockets.push(socket);
      closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
      socket.on('data', () => undefined);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: 'silent', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }, { name: 'u', token: 't' });

    // When: a read times out.
    await expect(new ClusterGateway(kc, { callTimeoutMs: 200 }).pods.list('devtroncd')).rejects.toThrow('list pods in devtroncd timed out after 200 ms');

    // Then: the client has closed its connection (before, it stayed open, and kept the doctor's process alive
    // after its answer until the server hung up: never, for this one).
    expect(sockets).toHaveLength(1);
    await closed[0];
  });
});
