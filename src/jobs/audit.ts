import type { Redis } from 'ioredis';

/** What happened, in the audit trail's words. */
export type AuditAction =
  | 'requested'
  | 'refused'
  | 'planned'
  | 'approved'
  | 'approval-refused'
  /** Someone other than the person who asked or an approver pressed a remedy's button (plan again, an answer, deny, cancel). */
  | 'action-refused'
  | 'denied'
  | 'expired'
  | 'cancelled'
  | 'step'
  | 'outcome'
  | 'decision'
  /** Redis lost the state of an open remedy; it was ended. */
  | 'lost'
  /** A doctor ran on a cluster (read-only). */
  | 'doctor'
  /** After a run, the entry's detector looked at the symptom: cleared, still present, or why it could not tell. */
  | 'verified'
  /** A person silenced one symptom of the scheduled doctor on one cluster for a while. */
  | 'doctor-snoozed';

/** One record of the audit trail. Never holds a secret: only ids, names and the bot's own messages. */
export interface AuditRecord {
  readonly id?: string;
  readonly at: string;
  readonly who: string;
  readonly action: AuditAction;
  readonly requestId?: string;
  readonly entryId?: string;
  readonly cluster?: string;
  readonly stageId?: string;
  readonly detail?: string;
}

/** How many records a filtered read of the trail looks back through at most. */
const scanLimit = 10_000;

/** How the trail is bounded: by age, and by count against a flood of audited actions. */
export interface AuditBounds {
  /** Records older than this go as new ones arrive. */
  readonly retentionDays: number;
  /** The most records kept: past it the oldest go, before their retention, and `onCapped` is told. */
  readonly maxRecords: number;
  /** How often an append checks the count (by default once a minute per process: XLEN is cheap, but not free). */
  readonly checkEveryMs?: number;
  /** Told when the cap dropped records: how many, and the time of the oldest record kept. */
  readonly onCapped?: (capped: { dropped: number; oldestKept: string }) => void;
}

/**
 * The audit trail: a Redis stream that every request, plan, approval, denial, step and outcome is
 * appended to. Records older than the retention are trimmed as new ones arrive; past its most records,
 * the oldest are trimmed too, so that a flood of audited actions cannot fill the Redis the queues need.
 */
export class AuditTrail {
  private readonly retentionDays: number;
  private lastCheck = -Infinity;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly bounds: AuditBounds,
  ) {
    this.retentionDays = bounds.retentionDays;
  }

  private get key(): string {
    return `${this.prefix}:audit`;
  }

  async append(r: Omit<AuditRecord, 'at' | 'id'>): Promise<void> {
    await this.add(this.redis.multi(), r).exec();
    await this.capped();
  }

  /**
   * After an append (at most once per `checkEveryMs`): trims the trail to its most records, exactly, and tells how
   * many went. Only the count is looked at on most checks; the trim runs when the trail is over its cap.
   */
  async capped(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCheck < (this.bounds.checkEveryMs ?? 60_000)) return;
    this.lastCheck = now;
    if ((await this.redis.xlen(this.key)) <= this.bounds.maxRecords) return;
    const dropped = await this.redis.xtrim(this.key, 'MAXLEN', this.bounds.maxRecords);
    if (dropped <= 0) return;
    const oldest = (await this.redis.xrange(this.key, '-', '+', 'COUNT', 1)) as [string, string[]][];
    const fields = oldest[0]?.[1] ?? [];
    this.bounds.onCapped?.({ dropped, oldestKept: fields[fields.indexOf('at') + 1] ?? '' });
  }

  /** Adds the record's append to a MULTI of the caller's, so that it goes in the same round trip as the change it records. */
  appendIn<T extends ReturnType<Redis['multi']>>(tx: T, r: Omit<AuditRecord, 'at' | 'id'>): T {
    // The count is checked beside the caller's MULTI; an unreachable Redis fails the MULTI, which its caller reports.
    void this.capped().catch(() => undefined);
    return this.add(tx, r);
  }

  private add<T extends ReturnType<Redis['multi']>>(tx: T, r: Omit<AuditRecord, 'at' | 'id'>): T {
    const fields: string[] = ['at', new Date().toISOString()];
    for (const [k, v] of Object.entries(r)) if (v !== undefined) fields.push(k, String(v).slice(0, 2000));
    const minId = `${Date.now() - this.retentionDays * 86_400_000}-0`;
    // With no record for a whole retention, every record is past it: the stream itself may go.
    tx.xadd(this.key, '*', ...fields).xtrim(this.key, 'MINID', '~', minId).expire(this.key, this.retentionDays * 86_400);
    return tx;
  }

  /**
   * The newest `n` records that `keep` accepts (every record without it), newest first. A filtered
   * read looks back through at most `scanLimit` records, so one approver's view of a busy trail stays cheap.
   */
  async latest(n: number, keep: (r: AuditRecord) => boolean = () => true): Promise<AuditRecord[]> {
    const found: AuditRecord[] = [];
    let end = '+';
    for (let scanned = 0; found.length < n && scanned < scanLimit; ) {
      const batch = Math.min(scanLimit - scanned, Math.max(n, 200));
      const rows = (await this.redis.xrevrange(this.key, end, '-', 'COUNT', batch)) as [string, string[]][];
      for (const [id, kv] of rows) {
        const o: Record<string, string> = { id };
        for (let i = 0; i + 1 < kv.length; i += 2) o[kv[i]!] = kv[i + 1]!;
        const record = o as unknown as AuditRecord;
        if (found.length < n && keep(record)) found.push(record);
      }
      scanned += rows.length;
      if (rows.length < batch) break;
      end = `(${rows[rows.length - 1]![0]}`;
    }
    return found;
  }
}
