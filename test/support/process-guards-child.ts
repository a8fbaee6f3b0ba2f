/**
 * A small process that serves HTTP behind the product's process guards, then fails as asked
 * (`rejection`: a promise nobody awaits rejects; `exception`: an exception nobody catches).
 * test/observability/process-guards.test.ts runs it to see what the process does next.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../src/logger.js';
import { installProcessGuards } from '../../src/observability/process-guards.js';

const logger = createLogger('info');
installProcessGuards(logger);
const server = createServer((_req, res) => res.end('still serving'));
server.listen(0, '127.0.0.1', () => {
  logger.info({ port: (server.address() as AddressInfo).port }, 'listening');
  const failure = process.argv[2];
  if (failure === 'rejection') void Promise.reject(new Error('posting a report failed: chat.update answered 500'));
  if (failure === 'exception') {
    setImmediate(() => {
      throw new Error('the queue listener is in a state it cannot leave');
    });
  }
});
