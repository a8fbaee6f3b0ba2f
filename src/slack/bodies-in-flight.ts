import type { IncomingMessage } from 'node:http';

/**
 * The most bytes of request bodies not yet verified that the bot holds at once, all requests together.
 * Each body may be up to Bolt's 4 MB and is held for up to 3 s before its signature can be checked, so
 * without a total, anyone who can reach the port could make the bot hold as much as they can send in
 * 3 s. Slack's own bodies are a few kilobytes (a click on a full card, some hundreds): four bodies of
 * the largest size still fit.
 */
export const maxUnverifiedBytes = 16 * 1024 * 1024;

/** One request whose body is being read: what it holds so far, and how to let it go. */
interface Reading {
  bytes: number;
  readonly drop: () => void;
}

/**
 * Counts the bytes of every body being read before verification. When a chunk takes the total past
 * the cap, the request holding the most is closed: a stall sending megabytes, not one of Slack's
 * small requests arriving at the same moment.
 */
export class BodiesInFlight {
  private readonly readings = new Set<Reading>();
  private total = 0;

  constructor(private readonly cap: number = maxUnverifiedBytes) {}

  /** Bytes held now, all requests together. */
  get held(): number {
    return this.total;
  }

  /**
   * Counts `req`'s body as it arrives (attach once its body is being read, so no chunk is missed);
   * `drop` is called if it is the one closed. The returned function stops counting it and frees its
   * bytes: call it once the body is read or refused.
   */
  track(req: IncomingMessage, drop: () => void): () => void {
    const reading: Reading = { bytes: 0, drop };
    this.readings.add(reading);
    const onData = (chunk: Buffer) => {
      // A request closed for the cap may still deliver what it had read: it no longer counts.
      if (!this.readings.has(reading)) return;
      reading.bytes += chunk.length;
      this.total += chunk.length;
      this.enforce();
    };
    req.on('data', onData);
    return () => {
      req.off('data', onData);
      this.release(reading);
    };
  }

  private release(reading: Reading): void {
    if (!this.readings.delete(reading)) return;
    this.total -= reading.bytes;
  }

  private enforce(): void {
    while (this.total > this.cap) {
      let largest: Reading | undefined;
      for (const r of this.readings) if (!largest || r.bytes > largest.bytes) largest = r;
      if (!largest) return;
      this.release(largest);
      largest.drop();
    }
  }
}
