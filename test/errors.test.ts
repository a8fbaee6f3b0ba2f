import { readFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { ApiException, CoreV1Api } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterError } from '../src/cluster/errors.js';
import { KubeConfigError } from '../src/cluster/kubeconfig.js';
import { startSimulatedCluster, type SimulatedCluster } from '../src/cluster/sim/index.js';
import { ConfigError } from '../src/config.js';
import { InputError, toUserError, UserFacingError } from '../src/errors.js';
import { RedisUnavailableError } from '../src/jobs/redis.js';
import { DashboardError } from '../src/remedies/dashboard/client.js';
import { DatabaseFailure } from '../src/remedies/database/errors.js';
import { SlackStartError } from '../src/slack/token-checks.js';
import { testRedisUrl } from './support/test-redis.js';
import { freePort } from './support/own-redis.js';

/** What a real call failed with. */
async function failureOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('the call did not fail');
}

describe('one error type that users see', () => {
  it('the expected failures of every layer are UserFacingErrors with a code, and pass through as they are', () => {
    const errors = [
      new InputError('match: unknown flag --jsn; did you mean --json?'),
      new ConfigError(['REDIS_URL: not a URL']),
      new RedisUnavailableError('redis://127.0.0.1:1', 'ECONNREFUSED'),
      new KubeConfigError('There is no context "prod"'),
      new SlackStartError('Slack refused the token'),
      new ClusterError('forbidden', 'Permission missing for delete pod', 'delete pod'),
      new DashboardError('unauthorized', 'The dashboard refused the password'),
      new DatabaseFailure('28P01', 'PostgreSQL refused the password'),
    ];
    expect(errors.map((e) => [e instanceof UserFacingError, toUserError(e) === e, e.code, e.safeMessage === e.message])).toEqual([
      [true, true, 'input', true],
      [true, true, 'config', true],
      [true, true, 'redis-unavailable', true],
      [true, true, 'kubeconfig', true],
      [true, true, 'slack-start', true],
      [true, true, 'forbidden', true],
      [true, true, 'unauthorized', true],
      [true, true, '28P01', true],
    ]);
  });

  it('a refused connection names where it went and its code, whether from a socket or from fetch', async () => {
    const port = await freePort();
    const socket = await failureOf(
      () =>
        new Promise((_resolve, reject) => {
          connect(port, '127.0.0.1').once('error', reject);
        }),
    );
    expect(toUserError(socket)).toMatchObject({ code: 'unreachable', safeMessage: `Cannot reach 127.0.0.1:${port} (ECONNREFUSED).` });
    const fetched = await failureOf(() => fetch(`http://127.0.0.1:${port}/x`));
    const user = toUserError(fetched);
    expect(user).toMatchObject({ code: 'unreachable', safeMessage: `Cannot reach 127.0.0.1:${port} (ECONNREFUSED).` });
    expect(user.cause).toBe(fetched);
  });

  it('a name that does not resolve is unreachable too', async () => {
    const err = await failureOf(() => fetch('http://no-such-host.invalid/'));
    const user = toUserError(err);
    expect(user.code).toBe('unreachable');
    expect(user.safeMessage).toMatch(/^Cannot reach no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN)\)\.$/);
  });

  it('a file that cannot be read names the file and the reason', async () => {
    const err = await failureOf(() => readFile('/nonexistent/paste.log'));
    expect(toUserError(err)).toMatchObject({ code: 'file', safeMessage: 'cannot use /nonexistent/paste.log: no such file' });
  });

  it('another failed system call says which, with its code and address alone', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    const second = createServer();
    const err = await failureOf(() => new Promise((resolve, reject) => second.once('error', reject).listen(port, '127.0.0.1', () => resolve(undefined))));
    taken.close();
    expect(toUserError(err)).toMatchObject({ code: 'system', safeMessage: `listen failed (EADDRINUSE) at 127.0.0.1:${port}.` });
  });

  describe('Kubernetes Status errors', () => {
    let sim: SimulatedCluster;
    beforeAll(async () => {
      sim = await startSimulatedCluster();
    });
    afterAll(() => sim?.close());

    it('a refused call of the real client becomes its status as a code and the Status message', async () => {
      const api = sim.kubeConfig().makeApiClient(CoreV1Api);
      const err = await failureOf(() => api.readNamespacedPod({ name: 'no-such-pod', namespace: sim.names.platformNamespace }));
      expect(err).toBeInstanceOf(ApiException);
      expect(toUserError(err)).toMatchObject({ code: 'not-found', safeMessage: 'The Kubernetes API refused the request (404 NotFound): pods "no-such-pod" not found.' });
    });

    it('403, 409 and 422 are grouped the way a person acts on them; an unknown status is a server error', () => {
      const status = (code: number, reason: string, message: string) => new ApiException(code, 'HTTP-Code', JSON.stringify({ kind: 'Status', code, reason, message }), {});
      expect(toUserError(status(403, 'Forbidden', 'pods is forbidden: User "system:serviceaccount:medic:worker" cannot delete')).code).toBe('forbidden');
      expect(toUserError(status(409, 'Conflict', 'the object has been modified')).code).toBe('conflict');
      expect(toUserError(status(422, 'Invalid', 'spec.replicas: Invalid value')).code).toBe('invalid');
      expect(toUserError(status(503, 'ServiceUnavailable', 'etcd is down'))).toMatchObject({ code: 'server', safeMessage: 'The Kubernetes API refused the request (503 ServiceUnavailable): etcd is down.' });
      expect(toUserError({ kind: 'Status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' }).code).toBe('unauthorized');
    });
  });

  describe('Redis client errors', () => {
    it("a refusal by the server gives its reason word only, never the command's arguments", async () => {
      const redis = new Redis(testRedisUrl);
      try {
        const err = await failureOf(() => redis.call('NOSUCHCOMMAND', 'xoxb-secret-token-value'));
        const user = toUserError(err);
        expect(user).toMatchObject({ code: 'redis-refused', safeMessage: 'The queue (Redis) refused the request (ERR).' });
        expect(JSON.stringify(user)).not.toContain('xoxb');
      } finally {
        redis.disconnect();
      }
    });

    it('a closed connection and a command that ran out of retries are "the queue is unreachable"', async () => {
      const closed = new Redis(testRedisUrl);
      await closed.quit();
      expect(toUserError(await failureOf(() => closed.ping()))).toMatchObject({ code: 'redis-unavailable', safeMessage: 'The queue (Redis) is unreachable.' });
      const port = await freePort();
      const nobody = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, retryStrategy: () => 20 });
      nobody.on('error', () => undefined);
      try {
        const err = await failureOf(() => nobody.ping());
        expect((err as Error).name).toBe('MaxRetriesPerRequestError');
        expect(toUserError(err).code).toBe('redis-unavailable');
      } finally {
        nobody.disconnect();
      }
    });
  });

  it('anything else is an internal error naming only its class; the original stays as the cause, for the log', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'token') at xoxb-1234-secret");
    const user = toUserError(bug);
    expect(user).toMatchObject({ code: 'internal', safeMessage: 'Internal error (TypeError); the log has the details.' });
    expect(user.cause).toBe(bug);
    expect(toUserError('a thrown string').safeMessage).toBe('Internal error (string); the log has the details.');
    expect(toUserError(bug, { internal: (name) => `Internal error in the worker (${name}); see its log for request r1.` }).safeMessage).toBe('Internal error in the worker (TypeError); see its log for request r1.');
  });
});
