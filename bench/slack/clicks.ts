import type { Agent } from 'node:http';
import { Queue, QueueEvents } from 'bullmq';
import { actionIds } from '../../src/views/slack/remedy.js';
import { clusterQueueName, runJobId } from '../../src/jobs/names.js';
import { blockActionsBody, slashCommandBody } from '../../test/support/slack-requests.js';
import { postSigned } from './http.js';
import type { BenchChild } from './ipc.js';
import type { CardAnswer, ServicesInfo } from './protocol.js';

type ReadyCard = Extract<CardAnswer, { busy: false }>;
import { percentiles, type Percentiles } from './stats.js';

/**
 * The approval bar: time from sending a signed Approve click to the worker starting the run job.
 * Each trial asks for `/platform fix git-sensor-stuck`, waits for its approval card in the fake Slack,
 * clicks Approve as an approver, and waits for the run to end, so the next trial meets an idle worker
 * and a Ready git-sensor pod. Trials run one after another.
 */

/** The click figures. */
export interface ClickResult {
  readonly trials: number;
  /** Click sent (parent) → QueueEvents `active` of the run job received (parent): one clock. */
  readonly toActiveEvent: Percentiles;
  /** Click sent (parent's Date.now) → the `active` event's stream id (Redis's clock, ms). */
  readonly toActiveStreamId: Percentiles;
  /** Click sent (parent's Date.now) → job.processedOn (the worker's Date.now, ms). */
  readonly toProcessedOn: Percentiles;
  /** The click's own HTTP acknowledgement. */
  readonly clickAck: Percentiles;
  /** Slash command sent → approval card seen by the parent (plan job round trip, Slack posts, IPC). */
  readonly fixToCard: Percentiles;
  /** Runs that ended `completed` (the pod was deleted and came back Ready), of all trials. */
  readonly runsCompleted: number;
  /** Fixes asked again because the previous trial's remedy still held the entry. */
  readonly busyRetries: number;
  readonly failures: string[];
  readonly wallMs: number;
}

/** What the trials need. */
export interface ClickOptions {
  readonly botPort: number;
  readonly agent: Agent;
  readonly services: BenchChild<ServicesInfo>;
  readonly secret: string;
  readonly redisUrl: string;
  readonly prefix: string;
  readonly cluster: string;
  /** Prefix of the requesters' user ids: one person per trial, so the hourly limit per person never refuses. */
  readonly requesterPrefix: string;
  readonly approver: string;
  readonly trials: number;
  /** Stop starting trials after this long. */
  readonly budgetMs: number;
}

type JobEvent = { kind: 'active' | 'completed' | 'failed'; at: number; streamMs: number; detail?: string };

/** Waits for QueueEvents of given job ids; events are kept until asked for, so none is missed. */
class JobEvents {
  private readonly seen = new Map<string, JobEvent[]>();
  private readonly waiters = new Map<string, (e: JobEvent) => void>();

  constructor(events: QueueEvents) {
    const on = (kind: JobEvent['kind']) => (args: { jobId: string; returnvalue?: unknown; failedReason?: string }, id: string) => {
      const e: JobEvent = { kind, at: performance.now(), streamMs: Number(id.split('-')[0]), ...(args.failedReason ? { detail: args.failedReason } : {}) };
      const list = this.seen.get(args.jobId) ?? [];
      list.push(e);
      this.seen.set(args.jobId, list);
      this.waiters.get(`${args.jobId}/${kind}`)?.(e);
    };
    events.on('active', on('active'));
    events.on('completed', on('completed'));
    events.on('failed', on('failed'));
  }

  wait(jobId: string, kinds: readonly JobEvent['kind'][], timeoutMs: number): Promise<JobEvent> {
    const already = this.seen.get(jobId)?.find((e) => kinds.includes(e.kind));
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${kinds.join('/')} event for ${jobId} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        for (const k of kinds) this.waiters.delete(`${jobId}/${k}`);
      };
      for (const k of kinds) {
        this.waiters.set(`${jobId}/${k}`, (e) => {
          done();
          resolve(e);
        });
      }
    });
  }
}

/** The Approve button of a card, as Slack would describe the click on it. */
function approveButton(card: ReadyCard): { block: string; actionId: string; value: string; text: string } {
  for (const b of card.message.blocks ?? []) {
    if (b.type !== 'actions') continue;
    const elements = (b as unknown as { elements: { action_id: string; value: string; text: { text: string } }[] }).elements;
    const e = elements.find((x) => x.action_id.startsWith(actionIds.approve));
    if (e) return { block: b.block_id ?? '', actionId: e.action_id, value: e.value, text: e.text.text };
  }
  throw new Error(`no Approve button on the card ${card.message.ts}`);
}

export async function runClickTrials(o: ClickOptions): Promise<ClickResult> {
  const queueName = clusterQueueName(o.cluster);
  const events = new QueueEvents(queueName, { connection: { url: o.redisUrl }, prefix: o.prefix });
  const queue = new Queue(queueName, { connection: { url: o.redisUrl }, prefix: o.prefix });
  await events.waitUntilReady();
  const jobEvents = new JobEvents(events);
  const toActive: number[] = [];
  const toStream: number[] = [];
  const toProcessed: number[] = [];
  const acks: number[] = [];
  const fixToCard: number[] = [];
  const failures: string[] = [];
  let runsCompleted = 0;
  let busyRetries = 0;
  let attempt = 0;
  const start = performance.now();
  let trial = 0;
  try {
    for (; trial < o.trials && performance.now() - start < o.budgetMs; trial++) {
      try {
        // The previous trial's remedy closes when the bot has handled its run's end, a moment after the
        // worker finished: until then the product refuses a second git-sensor-stuck fix; ask again.
        let card: CardAnswer = { busy: true };
        let fix: Awaited<ReturnType<typeof postSigned>> | undefined;
        for (let tries = 0; card.busy; tries++) {
          if (tries >= 50) throw new Error('git-sensor-stuck stayed busy after 50 tries');
          if (tries > 0) {
            busyRetries++;
            await new Promise((r) => setTimeout(r, 20));
          }
          const channel = `C0CLICK${++attempt}`;
          fix = await postSigned(o.botPort, o.agent, slashCommandBody({ text: 'fix git-sensor-stuck', user_id: `${o.requesterPrefix}${attempt}`, channel_id: channel, response_url: `${o.services.info.url}/response/fix-${attempt}` }), o.secret, 3_000);
          if (fix.status !== 200) throw new Error(`the fix command was answered ${fix.status ?? fix.error}`);
          card = await o.services.call<CardAnswer>('card', { channel, responseId: `click-${attempt}`, fixResponseId: `fix-${attempt}`, user: o.approver, timeoutMs: 10_000 });
        }
        if (!fix || card.busy) throw new Error('unreachable');
        const channel = `C0CLICK${attempt}`;
        fixToCard.push(performance.now() - fix.sentAt);
        const button = approveButton(card);
        const ref = JSON.parse(button.value) as { r: string; s: string; a: string };
        // A run belongs to its approval attempt, named on the card.
        const jobId = runJobId(ref.r, ref.s, ref.a, 0);
        const body = blockActionsBody({
          user: o.approver,
          channel,
          message_ts: card.message.ts,
          ...(card.message.thread_ts ? { thread_ts: card.message.thread_ts } : {}),
          action_id: button.actionId,
          value: button.value,
          block_id: button.block,
          button_text: button.text,
          response_url: card.responseUrl,
          message: { text: card.message.text, blocks: card.message.blocks },
        });
        const active = jobEvents.wait(jobId, ['active'], 5_000);
        const click = await postSigned(o.botPort, o.agent, body, o.secret, 3_000);
        if (click.status !== 200) throw new Error(`the click was answered ${click.status ?? click.error}`);
        acks.push(click.ms);
        const a = await active;
        toActive.push(a.at - click.sentAt);
        toStream.push(a.streamMs - click.sentWall);
        const end = await jobEvents.wait(jobId, ['completed', 'failed'], 10_000);
        if (end.kind === 'completed') runsCompleted++;
        else failures.push(`trial ${trial}: run failed: ${end.detail}`);
        const job = await queue.getJob(jobId);
        if (job?.processedOn !== undefined) toProcessed.push(job.processedOn - click.sentWall);
      } catch (err) {
        failures.push(`trial ${trial}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  } finally {
    await events.close();
    await queue.close();
  }
  return {
    trials: trial,
    toActiveEvent: percentiles(toActive),
    toActiveStreamId: percentiles(toStream),
    toProcessedOn: percentiles(toProcessed),
    clickAck: percentiles(acks),
    fixToCard: percentiles(fixToCard),
    runsCompleted,
    busyRetries,
    failures,
    wallMs: performance.now() - start,
  };
}
