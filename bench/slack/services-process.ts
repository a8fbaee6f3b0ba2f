/**
 * Child process: what surrounds the bot — the fake Slack Web API (rate limiter off) and the
 * simulated cluster, with the worker's RBAC enforced as in the end-to-end tests. Kept out of the
 * parent so that serving the bot's Web API calls never delays the load generator's clock.
 * Argument: JSON `{ kubeconfig }`, the path where the cluster's kubeconfig is written.
 */
import { catalogue } from '../../src/catalogue/index.js';
import { startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { defaultPlatformNames } from '../../src/platform-names.js';
import { workerRbac } from '../../src/remedies/rbac.js';
import { startFakeSlackApi, type StoredMessage } from '../../test/fakes/slack-api.js';
import { workerSubject } from '../../test/support/stack.js';
import { serveParent, startSampler } from './child.mjs';
import { actionIds } from '../../src/views/slack/remedy.js';
import { blockActionsBody } from '../../test/support/slack-requests.js';
import { keepAliveAgent, postSigned } from './http.js';
import { hasButton, type CardRequest, type CardAnswer, type ChannelSummary, type DenierOptions, type DenierResult } from './protocol.js';
import { percentiles } from './stats.js';

const sampler = startSampler();
const { kubeconfig } = JSON.parse(process.argv[2] ?? '{}') as { kubeconfig: string };
const sim = await startSimulatedCluster({ recreateDelayMs: 20, readyDelayMs: 20, policy: { subject: workerSubject, ...workerRbac(catalogue, defaultPlatformNames) } });
await sim.writeKubeconfig(kubeconfig);
const fake = await startFakeSlackApi({ rateLimit: false });

/**
 * The first message of `channel` (thread replies included) with an Approve button, or `busy` when the
 * bot refused the fix, privately, because the entry was still held (the previous trial's remedy not yet closed).
 */
async function card({ channel, responseId, fixResponseId, user, timeoutMs }: CardRequest): Promise<CardAnswer> {
  // The refusal goes only to the person who asked, through the command's response URL.
  const busy = (f: typeof fake) => f.responses(fixResponseId).some((r) => JSON.stringify(r.body).includes('is already being fixed'));
  const m = await fake.waitFor((f) => f.messages(channel).find((x) => hasButton(x, actionIds.approve)) ?? (busy(f) ? 'busy' : undefined), { timeoutMs, what: `an approval card in ${channel}, or the fix refused as busy` });
  if (m === 'busy') return { busy: true };
  const responseUrl = fake.responseUrl(responseId, { channel, messageTs: m.ts, user, ...(m.thread_ts ? { threadTs: m.thread_ts } : {}) });
  const message: Pick<StoredMessage, 'ts' | 'thread_ts' | 'text' | 'blocks'> = { ts: m.ts, text: m.text, ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}), ...(m.blocks ? { blocks: m.blocks } : {}) };
  return { busy: false, message, responseUrl };
}

/**
 * The approver of the load channel: denies every approval card as soon as it appears, as a person
 * would, so that the entry is free for the next fix (one remedy per entry per cluster at a time).
 */
const denier = { active: false, denied: new Set<string>(), acks: [] as number[], errors: 0, done: Promise.resolve() };

function buttonOf(m: StoredMessage, prefix: string): { block: string; actionId: string; value: string; text: string } | undefined {
  for (const b of m.blocks ?? []) {
    if (b.type !== 'actions') continue;
    const e = (b as unknown as { elements: { action_id: string; value: string; text: { text: string } }[] }).elements.find((x) => x.action_id.startsWith(prefix));
    if (e) return { block: b.block_id ?? '', actionId: e.action_id, value: e.value, text: e.text.text };
  }
  return undefined;
}

async function denyLoop(o: DenierOptions): Promise<void> {
  const agent = keepAliveAgent();
  const clicks: Promise<void>[] = [];
  // Messages are only ever appended: each is looked at once, so a long run (the soak posts tens of
  // thousands) costs no more per card than a short one.
  let scanned = 0;
  const newCards = (f: typeof fake): StoredMessage[] | undefined => {
    const all = f.messages(o.channel);
    const found: StoredMessage[] = [];
    for (; scanned < all.length; scanned++) if (hasButton(all[scanned]!, actionIds.deny)) found.push(all[scanned]!);
    return found.length > 0 ? found : undefined;
  };
  while (denier.active) {
    const cards = await fake.waitFor(newCards, { timeoutMs: 500, what: 'a card to deny' }).catch(() => [] as StoredMessage[]);
    for (const card of cards) clicks.push(deny(o, agent, card));
  }
  await Promise.all(clicks);
  agent.destroy();
}

/** Clicks Deny on one card as the approver. */
function deny(o: DenierOptions, agent: ReturnType<typeof keepAliveAgent>, card: StoredMessage): Promise<void> {
  denier.denied.add(card.ts);
  const button = buttonOf(card, actionIds.deny)!;
  const body = blockActionsBody({
    user: o.user,
    channel: o.channel,
    message_ts: card.ts,
    ...(card.thread_ts ? { thread_ts: card.thread_ts } : {}),
    action_id: button.actionId,
    value: button.value,
    block_id: button.block,
    button_text: button.text,
    response_url: fake.responseUrl(`deny-${card.ts}`, { channel: o.channel, messageTs: card.ts, user: o.user }),
    message: { text: card.text, blocks: card.blocks },
  });
  return postSigned(o.port, agent, body, o.secret, 3_000).then((r) => {
    if (r.status === 200) denier.acks.push(r.ms);
    else denier.errors++;
  });
}

function summary(channel: string): ChannelSummary {
  const messages = fake.messages(channel);
  const calls: Record<string, number> = {};
  for (const c of fake.calls()) calls[c.method] = (calls[c.method] ?? 0) + 1;
  return {
    roots: messages.filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts).length,
    cards: new Set([...denier.denied, ...messages.filter((m) => hasButton(m, actionIds.approve)).map((m) => m.ts)]).size,
    refusedBusy: messages.filter((m) => m.text.includes('is already being fixed')).length,
    refusedRate: messages.filter((m) => m.text.includes('in the last hour')).length,
    failures: fake.calls().filter((c) => !c.ok).length,
    calls,
  };
}

serveParent(
  {
    card: (arg) => card(arg as CardRequest),
    startDenying(arg) {
      denier.active = true;
      denier.done = denyLoop(arg as DenierOptions);
    },
    async stopDenying(): Promise<DenierResult> {
      denier.active = false;
      await denier.done;
      return { denied: denier.denied.size, ack: percentiles(denier.acks), errors: denier.errors };
    },
    summary: (arg) => summary(arg as string),
    callCount: () => fake.calls().length,
    symptoms: () => sim.symptoms(),
    stats: (arg) => sampler.stats(arg as { gc?: boolean } | undefined),
    mark: () => sampler.mark(),
    async stop() {
      await fake.close();
      await sim.close();
      setImmediate(() => process.exit(0));
    },
  },
  { apiUrl: fake.apiUrl, url: fake.url, botToken: fake.botToken },
);
