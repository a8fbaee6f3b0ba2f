import { afterAll, describe, expect, it } from 'vitest';
import { cached, type ReadinessCheck } from '../../src/observability/checks.js';
import { connectProbeRedis, redisCheck } from '../../src/observability/checks.js';
import { requestKind } from '../../src/observability/bolt.js';
import { Health, startHealthServer, createMetrics, metricNames } from '../../src/observability/index.js';
import { testRedisUrl } from '../support/test-redis.js';

function counting(fail = false): ReadinessCheck & { calls: number } {
  const c = {
    name: 'x',
    calls: 0,
    async check() {
      c.calls += 1;
      if (fail) throw new Error('down');
    },
  };
  return c;
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
};

describe('readiness checks', () => {
  const down = connectProbeRedis('redis://127.0.0.1:1');
  const up = connectProbeRedis(testRedisUrl);
  afterAll(() => {
    down.disconnect();
    up.disconnect();
  });

  it('a cached check asks again only after its time: a success for long, a failure soon', async () => {
    let now = 0;
    const ok = counting();
    const c = cached(ok, 60_000, 5_000, () => now);
    await c.check();
    now = 59_000;
    await c.check();
    expect(ok.calls).toBe(1);
    now = 60_001;
    await c.check();
    expect(ok.calls).toBe(2);
    const bad = counting(true);
    const f = cached(bad, 60_000, 5_000, () => now);
    await expect(f.check()).rejects.toThrow('down');
    now += 4_000;
    await expect(f.check()).rejects.toThrow('down');
    expect(bad.calls).toBe(1);
    now += 1_001;
    await expect(f.check()).rejects.toThrow('down');
    expect(bad.calls).toBe(2);
  });

  it('Redis: PING answers on a live server and fails within a second on an unreachable one', async () => {
    await redisCheck(up).check();
    const t0 = Date.now();
    await expect(redisCheck(down).check()).rejects.toThrow();
    // The check's own limit is a second; the rest is the machine's load.
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});

describe('the health server', () => {
  it('serves /healthz, /readyz (503 with the failing dependency, and from the start of shutdown) and /metrics', async () => {
    const metrics = createMetrics();
    let redisUp = true;
    const health = new Health([{ name: 'redis', check: async () => { if (!redisUp) throw new Error('redis PING: no answer within 1000 ms'); } }], metrics);
    const server = await startHealthServer(0, health.routes());
    const base = `http://127.0.0.1:${server.port}`;
    try {
      expect(await get(`${base}/healthz`)).toMatchObject({ status: 200 });
      expect(await get(`${base}/readyz`)).toMatchObject({ status: 200 });
      redisUp = false;
      const notReady = await get(`${base}/readyz`);
      expect(notReady.status).toBe(503);
      expect(JSON.parse(notReady.text)).toEqual({ ready: false, checks: { redis: 'redis PING: no answer within 1000 ms' } });
      // Liveness does not depend on Redis: a restart would not bring Redis back.
      expect((await get(`${base}/healthz`)).status).toBe(200);
      redisUp = true;
      health.beginShutdown();
      expect((await get(`${base}/readyz`)).status).toBe(503);
      const page = await get(`${base}/metrics`);
      expect(page.type).toContain('text/plain');
      for (const name of Object.values(metricNames)) expect(page.text).toContain(`# TYPE ${name} `);
      expect(page.text).toContain('platform_medic_process_cpu_seconds_total');
      expect((await get(`${base}/nope`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('metrics live on a registry of their own, so two in one process never collide', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.request('command', 'ok');
    a.matched({ verdict: 'no-match', matches: [], nearest: [] });
    expect(await a.registry.getSingleMetricAsString(metricNames.requests)).toContain('platform_medic_requests_total{kind="command",outcome="ok"} 1');
    expect(await a.registry.getSingleMetricAsString(metricNames.matches)).toContain('platform_medic_matches_total{entry="none"} 1');
    expect(await b.registry.getSingleMetricAsString(metricNames.requests)).not.toContain('kind="command"');
  });

  it('tells a Slack request kind from its payload', () => {
    expect(requestKind({ command: '/platform' } as never)).toBe('command');
    expect(requestKind({ type: 'block_actions' } as never)).toBe('action');
    expect(requestKind({ type: 'message_action' } as never)).toBe('shortcut');
    expect(requestKind({ type: 'view_submission' } as never)).toBe('view');
    expect(requestKind({ type: 'event_callback' } as never)).toBe('event');
  });
});
