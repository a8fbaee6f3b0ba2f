import type { Logger } from 'pino';

/** Resolves true when `work` settles within `ms`, false when the time ran out first. */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = work.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stops cleanly on SIGTERM / SIGINT, and exits after `seconds` whatever happens: the manifests'
 * terminationGracePeriodSeconds is a little longer, so the process always exits by itself before
 * the kubelet's SIGKILL. Returns a function that stops the same way after a failure the process cannot
 * serve through (Slack refusing its token; the caller logs it), with exit status 1 so that it is restarted.
 */
export function onShutdown(logger: Logger, seconds: number, stop: () => Promise<void>): () => void {
  let stopping = false;
  const shutDown = (signal: string | undefined) => {
    if (stopping) return;
    stopping = true;
    const failed = signal === undefined;
    // A failure was logged by whoever asked for the stop.
    logger.info({ ...(failed ? { after: 'the failure above' } : { signal }), boundSeconds: seconds }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ boundSeconds: seconds }, 'shutdown took too long; exiting');
      process.exit(1);
    }, seconds * 1000);
    force.unref();
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(failed ? 1 : 0);
      },
      (err: unknown) => {
        logger.error({ err: (err as Error)?.message }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutDown);
  process.once('SIGINT', shutDown);
  return () => shutDown(undefined);
}
