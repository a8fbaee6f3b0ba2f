import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { match } from '../../src/matching/index.js';
import type { StoredMessage } from '../fakes/slack-api.js';
import { approver, channel, startStack, type Stack } from '../support/stack.js';

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one sample on a /metrics page, 0 when absent. */
function sample(page: string, line: string): number {
  const hit = page.split('\n').find((l) => l.startsWith(`${line} `));
  return hit ? Number(hit.slice(line.length + 1)) : 0;
}

async function until(what: string, fn: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('metrics count what really happened, through the real stack (signed Slack requests, Redis, worker process, cluster)', () => {
  let stack: Stack;
  let botMetrics: string;
  let workerMetrics: string;

  beforeAll(async () => {
    stack = await startStack('metrics');
    botMetrics = stack.eventsUrl.replace('/slack/events', '/metrics');
    const port = /"healthPort":(\d+)/.exec(stack.workerLog())?.[1];
    workerMetrics = `http://127.0.0.1:${port}/metrics`;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('serves /healthz and /readyz on the Bolt port (Redis and Slack reachable)', async () => {
    const base = stack.eventsUrl.replace('/slack/events', '');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(await ready.json()).toEqual({ ready: true, checks: { redis: 'ok', slack: 'ok' } });
  });

  it('a slash command and its match', async () => {
    const text = 'build logs are not streaming';
    const expected = match(text);
    expect(expected.verdict).toBe('match');
    const entry = expected.verdict === 'match' ? expected.matches[0]!.id : '';
    // Counted from what the other tests did before, whatever their order.
    const before = await scrape(botMetrics);
    const counted = (page: string, line: string) => sample(page, line) - sample(before, line);
    expect((await stack.slash(`match ${text}`)).status).toBe(200);
    expect((await stack.slash('match hello there, nothing is wrong')).status).toBe(200);
    // A request counts once its listener returns: a match's, after its cluster evidence replaced the first answer.
    await until('both commands handled', async () => counted(await scrape(botMetrics), 'platform_medic_requests_total{kind="command",outcome="ok"}') >= 2);
    const page = await scrape(botMetrics);
    expect(counted(page, 'platform_medic_requests_total{kind="command",outcome="ok"}')).toBe(2);
    expect(counted(page, `platform_medic_matches_total{entry="${entry}"}`)).toBe(1);
    expect(counted(page, 'platform_medic_matches_total{entry="none"}')).toBe(1);
    expect(sample(page, 'platform_medic_queue_jobs{cluster="sim",state="waiting"}')).toBe(0);
  });

  it('a remedy denied, and a remedy run: its outcome on the bot, its steps timed on the worker', async () => {
    await stack.sim.break('git-sensor-stuck');
    const fix = async () => {
      const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
      expect((await stack.slash('fix git-sensor-stuck')).status).toBe(200);
      const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts) && m.text.includes('git-sensor-stuck')));
      const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { timeoutMs: 15_000 });
      return { rootTs: root.ts, card };
    };
    const before = await scrape(botMetrics);
    const first = await fix();
    await stack.click(first.card, 'remedy-deny', approver);
    await until('the denial counted', async () => sample(await scrape(botMetrics), 'platform_medic_remedies_total{outcome="denied"}') === sample(before, 'platform_medic_remedies_total{outcome="denied"}') + 1);
    // The click counts once its listener returns, which may be after the denial it made was counted.
    await until('the click counted', async () => sample(await scrape(botMetrics), 'platform_medic_requests_total{kind="action",outcome="ok"}') > sample(before, 'platform_medic_requests_total{kind="action",outcome="ok"}'));

    const second = await fix();
    await stack.click(second.card, 'remedy-approve', approver);
    await stack.fake.waitFor((f) => f.thread(channel, second.rootTs).find((m) => /Stage done/.test(m.text)), { timeoutMs: 20_000 });
    const page = await scrape(workerMetrics);
    const timed = page.split('\n').filter((l) => l.startsWith('platform_medic_step_duration_seconds_count{'));
    expect(timed.length).toBeGreaterThanOrEqual(1);
    expect(timed.every((l) => /kind="[a-zA-Z]+"/.test(l))).toBe(true);
  });
});
