import { createHash } from 'node:crypto';
import type { AnyMiddlewareArgs, BufferedIncomingMessage, Middleware, RespondFn } from '@slack/bolt';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { requestKind } from '../observability/bolt.js';
import { maxClockSkewSeconds } from './request-gate.js';

/**
 * How long a signed request is remembered. A request is accepted while its timestamp is within the
 * skew of the clock either way, so a copy can arrive up to twice the skew after the original; one
 * more minute covers bot replicas whose clocks differ a little.
 */
export const replayWindowSeconds = 2 * maxClockSkewSeconds + 60;

/** Bound on asking Redis, well inside the 3 s Slack gives for an acknowledgement. */
const checkTimeoutMs = 1_000;

/** Where requests already answered are remembered, shared by every bot replica (Redis). */
export interface ReplayMemory {
  /** True when none of `keys` was seen within `ttlSeconds`; remembers them all either way. */
  firstTime(keys: readonly string[], ttlSeconds: number): Promise<boolean>;
}

/**
 * Bolt's customPropertiesExtractor: a digest of the request's timestamp and signature (which covers
 * the body), computed after Bolt verified them. It reaches the middleware as `context.requestDigest`.
 */
export function requestDigest(req: BufferedIncomingMessage): { requestDigest?: string } {
  const timestamp = req.headers['x-slack-request-timestamp'];
  const signature = req.headers['x-slack-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return {};
  // The number Bolt verified, not the header's spelling of it.
  return { requestDigest: createHash('sha256').update(`${Number(timestamp)}:${signature}`).digest('hex') };
}

/**
 * The SocketModeReceiver's customPropertiesExtractor: the envelope's id. Slack delivers an envelope
 * it saw no acknowledgement for again, with the same id (and retry_attempt counting up); it reaches
 * the middleware as `context.envelopeId`.
 */
export function envelopeIdOf(args: { envelope_id?: unknown }): { envelopeId?: string } {
  return typeof args.envelope_id === 'string' && args.envelope_id !== '' ? { envelopeId: args.envelope_id } : {};
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Commands whose whole answer is the public catalogue, given in the acknowledgement: a copy of one
 * reveals nothing and changes nothing, so they are answered without asking Redis first (the claim is
 * the one wait between a request and its acknowledgement). Everything else is claimed, `match` too:
 * its answer carries the cluster's evidence (pods, log lines) and reading it queues a doctor job.
 */
const catalogueReads = new Set(['', 'help', 'list', 'explain']);

function answersFromCatalogue(body: unknown): boolean {
  const b = body as { command?: unknown; text?: unknown };
  if (typeof b.command !== 'string') return false;
  const text = typeof b.text === 'string' ? b.text : '';
  return catalogueReads.has(text.trim().split(/\s/, 1)[0]!.toLowerCase());
}

/**
 * Set on the context of a message event whose replay check Redis could not answer: its listener must run
 * nothing but telling the person (src/handlers/messages).
 */
export const redisUnavailableMark = 'redisUnavailable';

function isMessageEvent(body: unknown): boolean {
  const b = body as { type?: unknown; event?: { type?: unknown } };
  return b.type === 'event_callback' && b.event?.type === 'message';
}

/** Tells the person who clicked or used a shortcut, through its response_url, when it has one. */
async function tellPrivately(args: AnyMiddlewareArgs, text: string): Promise<void> {
  const respond = 'respond' in args ? (args.respond as RespondFn | undefined) : undefined;
  await respond?.({ response_type: 'ephemeral', replace_original: false, text });
}

/**
 * Bolt global middleware: answers each distinct request once. A signed request (HTTP) whose digest,
 * a Socket Mode envelope whose id, or either whose trigger_id, was already seen is acknowledged and
 * nothing runs. Slack's own retries of events are signed anew (HTTP) or may come in a new envelope,
 * so they pass here and are told apart by their event id, as before. When Redis cannot say, nothing
 * runs either (whatever the request asks needs Redis anyway), and the person is told so: a message event
 * goes on marked (redisUnavailableMark), for its listener to tell the person.
 */
export function refuseReplays(memory: ReplayMemory, logger: Logger): Middleware<AnyMiddlewareArgs> {
  const log = logger.child({ component: 'replays' });
  return async function refuseReplay(args) {
    const { context, body, next } = args;
    const digest = context.requestDigest;
    const envelopeId = context.envelopeId;
    const delivery = typeof digest === 'string' ? `request:${digest}` : typeof envelopeId === 'string' ? `envelope:${envelopeId}` : undefined;
    if (delivery === undefined) return next();
    if (answersFromCatalogue(body)) return next();
    const triggerId = (body as { trigger_id?: unknown }).trigger_id;
    const keys = [delivery, ...(typeof triggerId === 'string' ? [`trigger:${triggerId}`] : [])];
    const kind = requestKind(body);
    const ack = 'ack' in args ? (args.ack as (response?: unknown) => Promise<void>) : undefined;
    let first: boolean;
    try {
      first = await within(memory.firstTime(keys, replayWindowSeconds), checkTimeoutMs);
    } catch (err) {
      log.warn({ err: (err as Error).message, kind }, 'could not check whether a request was already answered; nothing was run');
      // Bolt has acknowledged an event already, so Slack will not send it again, and a message has no response_url:
      // its listener, told so, runs nothing and tells the person whose pasted error went unanswered.
      if (isMessageEvent(body)) {
        context[redisUnavailableMark] = true;
        return next();
      }
      const text = 'I cannot check this request right now (the queue, Redis, does not answer); nothing was done. Try again in a minute.';
      await ack?.(kind === 'command' ? { response_type: 'ephemeral', text } : undefined);
      // Slack shows nothing of a click's acknowledgement: without this, an Approve in an outage did nothing, silently.
      if (kind !== 'command') await tellPrivately(args, text).catch((e: unknown) => log.warn({ err: (e as Error).message, kind }, 'could not tell the person'));
      return;
    }
    if (first) return next();
    log.info({ kind, retryNum: context.retryNum }, 'replayed request acknowledged; nothing was run');
    await ack?.();
  };
}

/**
 * The replay memory on a Redis connection of its own: a claim never waits behind the queues' traffic
 * on a shared connection (it sits between a request and its acknowledgement).
 */
export class RedisReplayMemory implements ReplayMemory {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async firstTime(keys: readonly string[], ttlSeconds: number): Promise<boolean> {
    const tx = this.redis.multi();
    for (const k of keys) tx.set(`${this.prefix}:once:${k}`, '1', 'EX', ttlSeconds, 'NX');
    const results = await tx.exec();
    if (!results) throw new Error('the claim of a request was discarded');
    return results.every(([err, v]) => !err && v === 'OK');
  }
}
