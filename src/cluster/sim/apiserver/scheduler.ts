/**
 * The simulated controllers' clock. Every delayed action goes through here so that `settle()` can tell when
 * the cluster has stopped changing, and `close()` can cancel everything; timers are unref'd so a forgotten
 * simulator never keeps a test process alive.
 */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private waiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly onError: (error: unknown) => void) {}

  after(ms: number, action: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      try {
        action();
      } catch (error) {
        this.onError(error);
      }
      this.wakeIfIdle();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  get pending(): number {
    return this.timers.size;
  }

  /** Resolves once no action is pending, including actions scheduled by actions. */
  settle(): Promise<void> {
    if (this.timers.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.wakeIfIdle();
  }

  private wakeIfIdle(): void {
    if (this.timers.size > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
