import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { MedicMetrics } from '../observability/metrics.js';
import type { RemedyCoordinator } from '../remedies/coordinator.js';

/** What the Slack listeners need; injected so tests can drive them with real parts. */
export interface HandlerDeps {
  readonly config: Config;
  readonly coordinator: RemedyCoordinator;
  readonly logger: Logger;
  /** Counts match answers by entry; absent in handler unit tests. */
  readonly metrics?: MedicMetrics;
}
