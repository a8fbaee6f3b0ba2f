import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { channel, requester, startStack, type Stack } from '../support/stack.js';

describe('/platform doctor through the real Bolt receiver and the fake Slack', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('doctor', { hideMarkers: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('acks at once, answers in the channel with the symptom, its evidence and Plan fix; the button plans it on that cluster', async () => {
    await stack.sim.break('rollout-invalid-json');
    const res = await stack.slash('doctor', requester, { responseId: 'doctor-1' });
    expect(res.status).toBe(200);
    const answer = await stack.fake.waitFor((f) => f.responses('doctor-1')[0], { timeoutMs: 20_000 });
    const body = answer.body as { response_type: string; text: string; blocks: unknown[] };
    expect(body.response_type).toBe('in_channel');
    expect(body.text).toBe('Doctor on sim: rollout-invalid-json');
    const text = blocksText(body.blocks);
    expect(text).toContain('(`rollout-invalid-json`, guide 7.25) — seen in `sim`');
    expect(text).toMatch(/`rollout\/devtroncd\/payments-api` kubectl\.kubernetes\.io\/last-applied-configuration is not valid JSON/);
    expect(text).toMatch(/Not observable from the cluster .*`stale-session-cookie`/);
    expect(JSON.stringify(body.blocks)).toContain(JSON.stringify(JSON.stringify({ e: 'rollout-invalid-json', c: 'sim' })));

    const posted = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && m.text.includes('Doctor on sim')));
    await stack.click(posted, 'match-plan-fix', requester);
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.text.startsWith(`<@${requester}> asked to fix *Rollout sync status Failed`)), { timeoutMs: 15_000 });
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.text === 'Approval needed: rollout-invalid-json on sim, 1 step(s).'), { timeoutMs: 15_000 });
  });

  it("Plan fix on a symptom whose fix needs a value (dashboards-missing's metricsStore) tells the person alone the line to type; nothing is announced", async () => {
    await stack.sim.break('dashboards-missing');
    await stack.slash('doctor', requester, { responseId: 'doctor-2' });
    await stack.fake.waitFor((f) => f.responses('doctor-2')[0], { timeoutMs: 20_000 });
    const posted = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && m.text.includes('Doctor on sim') && m.text.includes('dashboards-missing')));
    expect(blocksText(posted.blocks ?? [])).toContain('Plan fix needs a value the button cannot carry: `metricsStore`');
    const buttons = (posted.blocks ?? []).flatMap((b) => (b as { elements?: { action_id?: string; value?: string }[] }).elements ?? []).filter((e) => e.action_id === 'match-plan-fix');
    const buttonIndex = buttons.findIndex((e) => JSON.parse(e.value ?? '{}').e === 'dashboards-missing');
    const before = stack.fake.messages(channel).length;
    const { responseId } = await stack.click(posted, 'match-plan-fix', requester, { buttonIndex });
    const answer = await stack.fake.waitFor((f) => f.responses(responseId)[0], { timeoutMs: 15_000 });
    expect(answer.body).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: '`metricsStore` is required: the metrics store endpoint registered for the cluster, e.g. `metricsStore=http://prometheus-server.monitoring.svc:80`. Type `/platform fix dashboards-missing sim metricsStore=&lt;metrics-store-URL&gt;`, with the value in place of `&lt;metrics-store-URL&gt;`.',
    });
    expect(stack.fake.messages(channel).slice(before).filter((m) => m.text.includes('asked to fix'))).toEqual([]);
  });

  it('Plan fix that carries the value the doctor saw (a data source that names the metrics store) plans the fix with it', async () => {
    const posted = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && m.text.includes('Doctor on sim') && m.text.includes('dashboards-missing')));
    // The button as the doctor draws it for a finding whose evidence shows the address (test/core/fix-hint.test.ts).
    const value = JSON.stringify({ e: 'dashboards-missing', c: 'sim', p: { metricsStore: 'http://prometheus-server.monitoring.svc:80' } });
    const blocks = (posted.blocks ?? []).map((b) => {
      const elements = (b as { elements?: { action_id?: string; value?: string }[] }).elements;
      return elements ? { ...b, elements: elements.map((e) => (e.action_id === 'match-plan-fix' && JSON.parse(e.value ?? '{}').e === 'dashboards-missing' ? { ...e, value } : e)) } : b;
    });
    const buttonIndex = blocks.flatMap((b) => (b as { elements?: { action_id?: string; value?: string }[] }).elements ?? []).filter((e) => e.action_id === 'match-plan-fix').findIndex((e) => e.value === value);
    await stack.click({ ...posted, blocks }, 'match-plan-fix', requester, { buttonIndex });
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.text.startsWith(`<@${requester}> asked to fix *Dashboards missing`)), { timeoutMs: 15_000 });
  });

  it('answers an unknown cluster privately in the acknowledgement', async () => {
    const res = await stack.slash('doctor prod-us');
    expect((res.json as { response_type: string; text: string })).toMatchObject({ response_type: 'ephemeral', text: 'There is no cluster `prod-us`. Configured clusters: `sim`.' });
  });
});
