import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, noSuchClusterText } from '../../src/config.js';
import { answerLine, type CommandContext } from '../../src/core/index.js';
import type { View } from '../../src/core/view.js';
import { DoctorResults, type ClusterDoctor } from '../../src/jobs/doctor-results.js';
import { connectRedis } from '../../src/jobs/redis.js';
import { RequestStore, type RemedyRequest } from '../../src/jobs/requests.js';
import { plainText, toText } from '../../src/views/plain.js';
import { mrkdwn, toBlocks } from '../../src/views/slack/answer.js';
import { limits } from '../../src/views/slack/kit.js';

const clusters = (names: string[]) => names.map((name) => ({ name, kube: { source: 'simulated' as const } }));
const config = loadConfig({ env: {}, overrides: { clusters: clusters(['prod-eu', 'staging']), defaultCluster: 'prod-eu' } });
const permalink = 'https://acme.slack.com/archives/C0PLATFORM/p1763730240000100';

const remedy = (id: string, over: Partial<RemedyRequest>): RemedyRequest => ({
  id,
  entryId: 'build-logs',
  cluster: 'prod-eu',
  requestedBy: 'UBOB',
  createdAt: '2026-11-21T13:00:00.000Z',
  stageId: 's1',
  status: 'planning',
  context: '{}',
  params: '{}',
  ...over,
});

const open: RemedyRequest[] = [
  remedy('r1', { status: 'awaiting-approval', since: '2026-11-21T13:04:00.000Z', context: JSON.stringify({ channel: 'C0PLATFORM', threadTs: '1763730240.000100', link: permalink }) }),
  remedy('r2', { entryId: 'git-sensor-stuck', cluster: 'staging', requestedBy: 'UDAVE', status: 'running', since: '2026-11-21T13:10:00.000Z', context: JSON.stringify({ channel: 'C0OPS', threadTs: '1763730600.000200' }) }),
  remedy('r3', { entryId: 'rollout-invalid-json', requestedBy: 'UDAVE', status: 'waiting', since: '2026-11-21T13:15:00.000Z', resumeAt: '2026-11-21T13:20:00.000Z' }),
];

const doctors: ClusterDoctor[] = [
  {
    cluster: 'prod-eu',
    run: { at: '2026-11-21T14:02:00.000Z', by: 'UALICE', tookMs: 1234, checked: 26, unknown: 0, present: [{ id: 'rollout-invalid-json', ref: '7.25', title: 'Rollout sync fails', evidence: 'rollout/devtroncd/payments-api last-applied-configuration is not valid JSON', more: 0 }] },
    rechecked: [
      { id: 'build-logs', at: '2026-11-21T14:10:00.000Z', by: 'UBOB', state: 'absent' },
      { id: 'git-sensor-stuck', at: '2026-11-21T14:12:00.000Z', by: 'UBOB', state: 'absent', remedy: 'r9' },
    ],
  },
  { cluster: 'staging', rechecked: [] },
];

/** The queue side as the core sees it: who approves where, the open remedies, the doctor's results. */
function desk(over: Partial<CommandContext['desk']> = {}, remedies = open, results = doctors): CommandContext['desk'] {
  const approves: Record<string, string[]> = { UALICE: ['prod-eu', 'staging'], UCAROL: ['staging'] };
  return {
    approvableClusters: async (user: string) => ({ clusters: approves[user] ?? [] }),
    openRemedies: async () => remedies,
    lastDoctor: async (names: readonly string[]) => results.filter((d) => names.includes(d.cluster)),
    ...over,
  } as unknown as CommandContext['desk'];
}

async function status(line: string, user: string, ctx: Partial<CommandContext> = {}): Promise<View> {
  const answer = await answerLine(line, { config, desk: desk(), user, ...ctx });
  if (answer.kind !== 'view') throw new Error(`expected a view, got ${answer.kind}`);
  return answer.view;
}

const remedyIds = (text: string) => [...text.matchAll(/ · (r\d+)$/gm)].map((m) => m[1]);

describe('status: the open remedies a person may see, and every cluster\'s last doctor result', () => {
  it('an approver of every cluster sees every remedy: who asked, the entry, the state, since when, the thread', async () => {
    const v = await status('status', 'UALICE');
    const text = toText(v);
    expect(remedyIds(text)).toEqual(['r1', 'r2', 'r3']);
    expect(text).toContain(`build-logs on prod-eu · awaiting approval since 2026-11-21 13:04 UTC · asked by @UBOB · thread ${permalink} · r1`);
    expect(text).toContain('git-sensor-stuck on staging · running since 2026-11-21 13:10 UTC · asked by @UDAVE · thread 1763730600.000200 in C0OPS · r2');
    expect(text).toContain('rollout-invalid-json on prod-eu · waiting since 2026-11-21 13:15 UTC, until 13:20 UTC · asked by @UDAVE · r3');
    expect(text).toContain('You approve on every cluster: you see every open remedy.');
    // In Slack: the requester mentioned, the thread a link.
    const slack = JSON.stringify(toBlocks(v));
    expect(slack).toContain(`asked by <@UBOB> · <${permalink}|thread>`);
    expect(mrkdwn(v.summary)).toBe('Status: 3 open remedies; symptoms present at the last doctor in 1 cluster');
  });

  it('an approver of one cluster sees its remedies and their own; anyone else sees their own alone', async () => {
    expect(remedyIds(toText(await status('status', 'UCAROL')))).toEqual(['r2']);
    expect(toText(await status('status', 'UCAROL'))).toContain('You see the remedies of staging (you approve there) and your own.');
    expect(remedyIds(toText(await status('status', 'UDAVE')))).toEqual(['r2', 'r3']);
    const bob = toText(await status('status', 'UBOB'));
    expect(remedyIds(bob)).toEqual(['r1']);
    expect(bob).toContain('You see your own remedies; approvers see every remedy of their clusters.');
    const nobody = toText(await status('status', 'UERIN'));
    expect(remedyIds(nobody)).toEqual([]);
    expect(nobody).toContain('No open remedy of yours.');
  });

  it("shows every cluster's last doctor to everyone: its symptoms with evidence and time, entries checked again since, or never run", async () => {
    for (const user of ['UALICE', 'UERIN']) {
      const text = toText(await status('status', user));
      expect(text).toContain('prod-eu: 1 symptom present at the last doctor (2026-11-21 14:02 UTC, asked by @UALICE, 26 entries in 1.2 s):');
      expect(text).toContain('• rollout-invalid-json (guide 7.25) — rollout/devtroncd/payments-api last-applied-configuration is not valid JSON');
      expect(text).toContain('• build-logs checked again 2026-11-21 14:10 UTC for a pasted error: not seen');
      // Only a remedy's check can say its symptom cleared; a pasted error's candidate was perhaps never there.
      expect(text).toContain('• git-sensor-stuck checked again 2026-11-21 14:12 UTC after remedy r9: cleared');
      expect(text).toContain('staging: the doctor has never run here. /platform doctor staging checks it.');
    }
    const clean = toText(await status('status', 'UERIN', { desk: desk({}, [], [{ cluster: 'prod-eu', run: { ...doctors[0]!.run!, present: [], unknown: 2 }, rechecked: [] }]) }));
    expect(clean).toContain('prod-eu: no symptom present at the last doctor (2026-11-21 14:02 UTC, asked by @UALICE, 26 entries in 1.2 s); 2 entries could not be judged.');
  });

  it('status <cluster>: that cluster alone; an unknown cluster gets the one wording; more words get the usage', async () => {
    const text = toText(await status('status staging', 'UALICE'));
    expect(remedyIds(text)).toEqual(['r2']);
    expect(text).toContain('Open remedies of staging (1)');
    expect(text).not.toContain('prod-eu:');
    expect(mrkdwn((await status('status prod-us', 'UALICE')).summary)).toBe(noSuchClusterText('prod-us', ['prod-eu', 'staging'], (s) => `\`${s}\``));
    expect(plainText((await status('status a b', 'UALICE')).summary)).toBe("Usage: /platform status [cluster]: the remedies open and the doctor's last results.");
  });

  it("stays within Slack's limits with many remedies and clusters, counting what it leaves out", async () => {
    const many = Array.from({ length: 80 }, (_, i) => remedy(`r${i}`, { entryId: `entry-${i}`, cluster: 'cluster-0', status: 'awaiting-approval', since: '2026-11-21T13:04:00.000Z', context: JSON.stringify({ link: `${permalink}${i}` }) }));
    const names = Array.from({ length: 30 }, (_, i) => `cluster-${i}`);
    const wide = loadConfig({ env: {}, overrides: { clusters: clusters(names) } });
    const results: ClusterDoctor[] = names.map((cluster) => ({ cluster, run: { ...doctors[0]!.run!, present: Array.from({ length: 12 }, (_, i) => ({ ...doctors[0]!.run!.present[0]!, id: `entry-${i}`, evidence: 'x'.repeat(200) })) }, rechecked: [] }));
    const answer = await answerLine('status', { config: wide, desk: desk({ approvableClusters: async () => ({ clusters: names }) }, many, results), user: 'UALICE' });
    if (answer.kind !== 'view') throw new Error('expected a view');
    const blocks = toBlocks(answer.view);
    expect(blocks.length).toBeLessThanOrEqual(limits.blocks);
    for (const b of blocks) if (b.type === 'section') expect(b.text!.text.length).toBeLessThanOrEqual(limits.sectionText);
    const first = (blocks[1] as { text: { text: string } }).text.text;
    const shown = first.split('\n').filter((l) => l.includes('awaiting approval')).length;
    expect(first).toMatch(new RegExp(`… and ${80 - shown} more$`));
    expect(shown).toBeGreaterThan(5);
    const all = JSON.stringify(blocks);
    expect(all).toContain('… and 4 more');
    expect(all).toContain('… and 15 more clusters: `cluster-15`');
    // The terminal has no such limit: every remedy is listed.
    expect(remedyIds(toText(answer.view))).toHaveLength(80);
  });
});

describe('status when Redis does not answer', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  const unreachable = "Cannot show the status: Redis, which keeps the remedies and the doctor's results, did not answer. Nothing was changed; ask again once it is back.";

  /** The store and results of the real classes, on a Redis at `url`. */
  function storesAt(url: string) {
    const redis = connectRedis(url, 'client');
    redis.on('error', () => undefined);
    const store = new RequestStore(redis, 'status-test');
    const results = new DoctorResults(redis, 'status-test');
    return { redis, desk: desk({ openRemedies: () => store.open(), lastDoctor: (c: readonly string[]) => results.read(c) }) };
  }

  it('says so in one sentence when nothing listens at its address', async () => {
    const { redis, desk: d } = storesAt('redis://127.0.0.1:1');
    try {
      expect(plainText((await status('status', 'UALICE', { desk: d })).summary)).toBe(unreachable);
    } finally {
      redis.disconnect();
    }
  });

  it('says so too when a server takes the connection and never answers', async () => {
    const silent = createServer((s) => sockets.push(s));
    servers.push(silent);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as { port: number };
    const { redis, desk: d } = storesAt(`redis://127.0.0.1:${port}`);
    try {
      expect(plainText((await status('status', 'UALICE', { desk: d })).summary)).toBe(unreachable);
    } finally {
      redis.disconnect();
    }
  });

  it('help lists it, on both surfaces', async () => {
    const help = await status('help', 'UALICE');
    expect(toText(help)).toContain('/platform status [cluster] — the remedies open');
    expect(JSON.stringify(toBlocks(help))).toContain('`/platform status [cluster]`');
  });
});
