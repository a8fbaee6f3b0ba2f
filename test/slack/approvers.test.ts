import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configuredApprovers } from '../../src/slack/approvers.js';
import type { Plan } from '../../src/remedies/plan.js';
import { startFakeSlackApi, type FakeSlackApi } from '../fakes/slack-api.js';

const minute = 60_000;
const plan: Plan = {
  requestId: 'rpolicy',
  entryId: 'git-sensor-stuck',
  stageId: 'restart',
  cluster: 'default',
  plannedAt: new Date().toISOString(),
  approval: 'approver',
  params: {},
  steps: [{ index: 0, kind: 'deletePods', does: 'Delete the git-sensor pod', risk: 'restart', approval: 'approver', lines: [], targets: [], data: {} }],
  warnings: [],
  hash: '0'.repeat(64),
};

describe('approver groups when Slack cannot tell their members', () => {
  let fake: FakeSlackApi;
  let now = Date.UTC(2025, 0, 6, 10, 0, 0);

  beforeAll(async () => {
    fake = await startFakeSlackApi({ rateLimit: false });
    fake.setUserGroup('S0ONCALL', ['U0ONCALL']);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('uses the members read last for a stated time, then refuses and says the group could not be checked', async () => {
    const config = loadConfig({ env: { PLATFORM_MEDIC_CONFIG: '', PLATFORM_MEDIC_APPROVERS: 'U0APPROVER', PLATFORM_MEDIC_APPROVER_GROUPS: 'S0ONCALL', PLATFORM_MEDIC_APPROVER_GROUP_STALE_MINUTES: '10' } });
    const client = new webApi.WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const policy = configuredApprovers(config, client, undefined, { now: () => now });
    // The calls of this test only, whatever ran before it on the same fake.
    const from = fake.calls('usergroups.users.list').length;

    expect(await policy.refusal('U0ONCALL', plan, 'U0REQUESTER')).toBeUndefined();
    // Six minutes later the members are asked for again and Slack fails: the list read six minutes ago still counts.
    now += 6 * minute;
    fake.failNext('usergroups.users.list', 'internal_error');
    expect(await policy.refusal('U0ONCALL', plan, 'U0REQUESTER')).toBeUndefined();
    // Eleven minutes after the last read it does not: the group's members cannot approve, and are told why.
    now += 5 * minute;
    fake.failNext('usergroups.users.list', 'internal_error');
    expect(await policy.refusal('U0ONCALL', plan, 'U0REQUESTER')).toBe(
      'Only the approvers of cluster `default` can approve this: <@U0APPROVER>, <!subteam^S0ONCALL>. Slack could not tell the members of <!subteam^S0ONCALL>, and no list of them read within the last 10 min is at hand, so its members cannot act as approvers until Slack answers again. Try again shortly, or ask an approver named by id.',
    );
    // An approver named by id is not affected; once Slack answers again, the group's members approve again.
    expect(await policy.refusal('U0APPROVER', plan, 'U0REQUESTER')).toBeUndefined();
    expect(await policy.refusal('U0ONCALL', plan, 'U0REQUESTER')).toBeUndefined();
    expect(fake.calls('usergroups.users.list').slice(from).map((c) => c.ok)).toEqual([true, false, false, true]);
  });

  it('reads the group again at every approval: a member removed from it a minute after a read cannot approve', async () => {
    const config = loadConfig({ env: { PLATFORM_MEDIC_CONFIG: '', PLATFORM_MEDIC_APPROVER_GROUPS: 'S0ROTA' } });
    const client = new webApi.WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const policy = configuredApprovers(config, client, undefined, { now: () => now });
    fake.setUserGroup('S0ROTA', ['U0LEAVER', 'U0STAYER']);
    expect(await policy.refusal('U0LEAVER', plan, 'U0REQUESTER')).toBeUndefined();
    // Off the rota a minute later: the next approval is theirs no more.
    fake.setUserGroup('S0ROTA', ['U0STAYER']);
    now += minute;
    expect(await policy.refusal('U0LEAVER', plan, 'U0REQUESTER')).toBe('Only the approvers of cluster `default` can approve this: <!subteam^S0ROTA>.');
    expect(await policy.refusal('U0STAYER', plan, 'U0REQUESTER')).toBeUndefined();
  });

  it('refuses, saying so, when Slack never told the members at all', async () => {
    const config = loadConfig({ env: { PLATFORM_MEDIC_CONFIG: '', PLATFORM_MEDIC_APPROVER_GROUPS: 'S0NOSUCH' } });
    const client = new webApi.WebClient(fake.botToken, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const policy = configuredApprovers(config, client, undefined, { now: () => now });
    expect(await policy.refusal('U0ONCALL', plan, 'U0REQUESTER')).toContain('Slack could not tell the members of <!subteam^S0NOSUCH>');
  });
});
