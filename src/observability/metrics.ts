import type { Queue } from 'bullmq';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MatchResult } from '../matching/types.js';

/** The names /metrics always shows (docs/operations.md lists them; a test checks they are served). */
export const metricNames = {
  requests: 'platform_medic_requests_total',
  matches: 'platform_medic_matches_total',
  remedies: 'platform_medic_remedies_total',
  verifications: 'platform_medic_verifications_total',
  queueJobs: 'platform_medic_queue_jobs',
  stepDuration: 'platform_medic_step_duration_seconds',
  pasteDropped: 'platform_medic_paste_answers_dropped_total',
  slackRateLimited: 'platform_medic_slack_rate_limited_total',
} as const;

/** Why a pasted error got no answer: a budget was spent, or the answer waited too long to be sent. */
export type PasteDropReason = 'user-budget' | 'channel-budget' | 'stale';

/** What a Slack request was: a slash command, a button, a shortcut, a modal submission, an event. */
export type RequestKind = 'command' | 'action' | 'shortcut' | 'view' | 'event' | 'other';

/** A cluster's queue whose depth /metrics reports. */
export interface WatchedQueue {
  readonly cluster: string;
  readonly queue: Queue;
}

/**
 * The bot's and the worker's Prometheus metrics, on a registry of their own: two bots in one test
 * process (or a bot and a worker) never share or double-register a metric.
 */
export interface MedicMetrics {
  readonly registry: Registry;
  request(kind: RequestKind, outcome: 'ok' | 'error'): void;
  /** One match answer: the first entry, or `none`. */
  matched(result: MatchResult): void;
  /** A remedy reached a final outcome (resolved, failed, denied, cancelled, …). */
  remedyEnded(outcome: string): void;
  /** The entry's detector looked at the symptom after a remedy's last stage: `cleared`, `still-present`, `unknown` or `not-observable`. */
  verified(result: string): void;
  stepFinished(kind: string, seconds: number): void;
  /** A pasted error that was not answered, and why. */
  pasteDropped(reason: PasteDropReason): void;
  /** Slack answered 429 to a write of this lane. */
  slackRateLimited(lane: 'remedy' | 'paste'): void;
  /** Reports these queues' waiting, active and delayed jobs at every scrape. */
  watchQueues(queues: readonly WatchedQueue[]): void;
}

/** Creates the metrics on `registry` (a fresh one by default), with Node's process metrics. */
export function createMetrics(registry = new Registry()): MedicMetrics {
  collectDefaultMetrics({ register: registry, prefix: 'platform_medic_' });
  const requests = new Counter({ name: metricNames.requests, help: 'Slack requests handled, by kind and outcome.', labelNames: ['kind', 'outcome'], registers: [registry] });
  const matches = new Counter({ name: metricNames.matches, help: 'Match answers, by the first entry matched (none: no catalogued remedy).', labelNames: ['entry'], registers: [registry] });
  const remedies = new Counter({ name: metricNames.remedies, help: 'Remedies that ended, by outcome.', labelNames: ['outcome'], registers: [registry] });
  const verifications = new Counter({ name: metricNames.verifications, help: "Remedies whose last stage finished, by what the entry's detector then saw: cleared, still-present, unknown (could not tell) or not-observable.", labelNames: ['result'], registers: [registry] });
  const steps = new Histogram({
    name: metricNames.stepDuration,
    help: 'Time a remedy step took on the worker, by step kind.',
    labelNames: ['kind'],
    // Steps range from one API call (tens of ms) to a verify that waits for pods (minutes).
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  const pasteDropped = new Counter({ name: metricNames.pasteDropped, help: 'Pasted errors not answered: over the per-person or per-channel budget, or the answer waited too long behind remedy messages.', labelNames: ['reason'], registers: [registry] });
  const rateLimited = new Counter({ name: metricNames.slackRateLimited, help: 'Writes Slack refused with 429 (and the bot sent again after Retry-After), by lane.', labelNames: ['lane'], registers: [registry] });
  let watched: readonly WatchedQueue[] = [];
  new Gauge({
    name: metricNames.queueJobs,
    help: 'Jobs in each cluster queue, by state (read from Redis at scrape time).',
    labelNames: ['cluster', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { cluster, queue } of watched) {
        // A scrape while Redis is away shows no depth rather than failing the whole page.
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed').catch(() => undefined);
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ cluster, state }, n);
      }
    },
  });
  return {
    registry,
    request: (kind, outcome) => requests.inc({ kind, outcome }),
    matched: (result) => matches.inc({ entry: result.verdict === 'match' ? (result.matches[0]?.id ?? 'none') : 'none' }),
    remedyEnded: (outcome) => remedies.inc({ outcome }),
    verified: (result) => verifications.inc({ result }),
    stepFinished: (kind, seconds) => steps.observe({ kind }, seconds),
    pasteDropped: (reason) => pasteDropped.inc({ reason }),
    slackRateLimited: (lane) => rateLimited.inc({ lane }),
    watchQueues: (queues) => {
      watched = queues;
    },
  };
}
