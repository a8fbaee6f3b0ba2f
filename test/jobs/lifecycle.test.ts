import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig } from '../../src/config.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { RemedyCoordinator, type ApprovalPolicy, type RemedyReporter } from '../../src/jobs/lifecycle/coordinator.js';
import { RedisOutageLog } from '../../src/jobs/redis-outage.js';
import { RequestStore, type RemedyRequest } from '../../src/jobs/requests.js';
import { startClusterWorker } from '../../src/jobs/worker.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';

const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));

async function until<T>(what: string, read: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const v = read();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`never saw ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A surface that posts nothing: it returns the ts a card would have, and notes what it was given. */
function recordingReporter(): RemedyReporter & { readonly seen: { planned?: { req: RemedyRequest; expiresAt: Date }; approved?: RemedyRequest } } {
  const seen: { planned?: { req: RemedyRequest; expiresAt: Date }; approved?: RemedyRequest } = {};
  const nothing = async () => undefined;
  return {
    seen,
    planning: nothing,
    async planned(req, _entry, _plan, expiresAt) {
      seen.planned = { req, expiresAt };
      return { cardTs: '1700000000.000100' };
    },
    async approved(req) {
      seen.approved = req;
    },
    denied: nothing,
    expired: nothing,
    cancelled: nothing,
    progress: nothing,
    revealed: nothing,
    stageEnded: nothing,
    remedyEnded: nothing,
    failed: nothing,
  };
}

const approvesAll: ApprovalPolicy = { refusal: async () => undefined, check: async () => ({ approver: true }) };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f().catch(() => undefined);
});

describe('the request lifecycle, built once by its composition root', () => {
  it('keeps what the reporter posted with the request, and hands the approval expiry to the reporter as a value', async () => {
    // Given a store made by the caller, shared with nothing but the coordinator, and a worker on a broken cluster
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    cleanups.push(() => sim.close());
    await sim.break('build-logs');
    const queuePrefix = uniquePrefix('lifecycle');
    const config = loadConfig({ env: {}, overrides: { redisUrl: testRedisUrl, queuePrefix, clusters: [{ name: 'simulated', kube: { source: 'simulated' }, approval: { expiresMinutes: 7 } }], defaultCluster: 'simulated' } });
    const worker = startClusterWorker({ config, cluster: config.clusters[0]!, kubeConfig: sim.kubeConfig(), logger: silent, pollMs: 50 });
    cleanups.push(() => worker.close(true));
    const redis = new Redis(testRedisUrl);
    cleanups.push(async () => {
      await deletePrefix(redis, `${queuePrefix}*`);
      redis.disconnect();
    });
    const store = new RequestStore(redis, queuePrefix);
    const reporter = recordingReporter();
    const outage = new RedisOutageLog({ logger: silent, redis: 'test' });
    const coordinator = new RemedyCoordinator({ config, logger: silent, redis, store, outage, reporter, policy: approvesAll });
    cleanups.push(() => coordinator.close());
    await coordinator.start();

    // When a fix is asked for and its plan is made
    const started = await coordinator.requestFix({ entryId: 'build-logs', requestedBy: 'alice', context: { channel: 'C1' } });
    if (!started.ok) throw new Error(started.message);
    const planned = await until('the plan reported', () => reporter.seen.planned);

    // Then the reporter got the expiry as a value, and the lifecycle kept the card's ts with the request's routing
    const plan = (await store.plan(started.request.id, planned.req.stageId))!;
    expect(planned.expiresAt.getTime()).toBe(Date.parse(plan.plannedAt) + 7 * 60_000);
    expect(JSON.parse((await store.get(started.request.id))!.context)).toEqual({ channel: 'C1', cardTs: '1700000000.000100' });

    // And a later report of the same request carries it
    expect(await coordinator.approve(started.request.id, plan.stageId, planned.req.attempt!, 'alice')).toEqual({ ok: true });
    const approved = await until('the approval reported', () => reporter.seen.approved);
    expect(JSON.parse(approved.context)).toEqual({ channel: 'C1', cardTs: '1700000000.000100' });
  }, 60_000);

  it('answers a button of a remedy its store does not hold (expired, or lost with an emptied Redis) saying nothing was done and how to start over', async () => {
    // Given a coordinator whose store holds no remedy at all (Redis restarted empty before it noticed)
    const queuePrefix = uniquePrefix('lifecycle-unknown');
    const config = loadConfig({ env: {}, overrides: { redisUrl: testRedisUrl, queuePrefix, clusters: [{ name: 'simulated', kube: { source: 'simulated' } }], defaultCluster: 'simulated' } });
    const redis = new Redis(testRedisUrl);
    cleanups.push(async () => {
      await deletePrefix(redis, `${queuePrefix}*`);
      redis.disconnect();
    });
    const coordinator = new RemedyCoordinator({ config, logger: silent, redis, store: new RequestStore(redis, queuePrefix), outage: new RedisOutageLog({ logger: silent, redis: 'test' }), reporter: recordingReporter(), policy: approvesAll });
    cleanups.push(() => coordinator.close());
    await coordinator.start();

    // When an approver clicks Approve, Cancel or a choice of a card the store no longer knows
    const answers = [await coordinator.approve('r-gone', 'stage', '1', 'bob'), await coordinator.cancel('r-gone', 'bob'), await coordinator.choose('r-gone', 'stage', 'yes', 'bob')];

    // Then each says that nothing was done and nothing of it will run, and how to start over
    for (const answer of answers) {
      expect(answer.ok).toBe(false);
      expect(!answer.ok && answer.message).toMatch(/nothing was done and nothing of it will run\. Ask for the fix again/);
    }
  }, 30_000);
});
