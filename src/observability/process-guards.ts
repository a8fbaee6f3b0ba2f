import type { Logger } from 'pino';

/** How long an exiting process waits for its last log lines to be written. */
const flushMs = 1_000;

/**
 * What the bot and the worker do with a failure nobody handled.
 *
 * - A rejected promise nobody awaited is one piece of asynchronous work that failed (a report, a
 *   listener's follow-up): it is logged and the process keeps serving. Its state is intact, since
 *   the failure happened between turns of the event loop; ending the process would drop every other
 *   request in flight for the sake of one.
 * - An exception nobody caught left a synchronous operation half done, in a state nothing can vouch
 *   for: it is logged and the process exits with status 1 after at most a second of flushing, so the
 *   orchestrator starts a clean one. Queued work survives in Redis; a worker's step is resumed from
 *   its ledger.
 */
export function installProcessGuards(logger: Logger): void {
  const log = logger.child({ component: 'process' });
  process.on('unhandledRejection', (reason: unknown) => {
    log.error({ err: reason instanceof Error ? reason : { message: String(reason) } }, 'unhandled promise rejection; the process keeps serving');
  });
  let exiting = false;
  process.on('uncaughtException', (err: Error) => {
    if (exiting) return;
    exiting = true;
    log.fatal({ err }, 'uncaught exception; exiting so that the process is restarted');
    const exit = () => process.exit(1);
    // Not unref'd: with nothing else left to run, the process would end with status 0.
    setTimeout(exit, flushMs);
    try {
      logger.flush(() => exit());
    } catch {
      // The timer exits anyway.
    }
  });
}
