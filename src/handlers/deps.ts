import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ClusterEvidenceCache } from '../core/evidence-cache.js';
import type { MedicMetrics } from '../observability/metrics.js';
import type { RemedyCoordinator } from '../jobs/lifecycle/coordinator.js';
import type { DoctorWatch } from '../jobs/watch/doctor-watch.js';
import type { SlackOutbox } from '../slack/outbox.js';
import type { PasteBudget } from './paste-budget.js';

/** What the Slack listeners need; injected so tests can drive them with real parts. */
export interface HandlerDeps {
  readonly config: Config;
  readonly coordinator: RemedyCoordinator;
  readonly logger: Logger;
  /** Every write to Slack's Web API goes through it: remedy messages first, paste answers after. */
  readonly outbox: SlackOutbox;
  /** How many pasted errors are answered per person and per channel. */
  readonly pasteBudget: PasteBudget;
  /**
   * The permalink of a message the bot posted (chat.getPermalink), kept with a fix so that `status`
   * links to its thread; absent, or failing, the thread is named by its channel and ts.
   */
  readonly permalink?: (channel: string, ts: string) => Promise<string | undefined>;
  /** The doctor's findings for pasted errors' candidates, reused for a while per cluster and entry. */
  readonly pasteEvidence: ClusterEvidenceCache;
  /** Counts match answers by entry; absent in handler unit tests. */
  readonly metrics?: MedicMetrics;
  /** The scheduled doctor; absent when no cluster has a channel for it. */
  readonly watch?: DoctorWatch;
}
