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

/**
 * The audit trail: a Redis stream that every request, plan, approval, denial, step and outcome is
 * appended to. Records older than the retention are trimmed as new ones arrive.
 */
export class AuditTrail {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly retentionDays: number,
  ) {}

  private get key(): string {
    return `${this.prefix}:audit`;
  }

  async append(r: Omit<AuditRecord, 'at' | 'id'>): Promise<void> {
    await this.appendIn(this.redis.multi(), r).exec();
  }

  /** Adds the record's append to a MULTI of the caller's, so that it goes in the same round trip as the change it records. */
  appendIn<T extends ReturnType<Redis['multi']>>(tx: T, r: Omit<AuditRecord, 'at' | 'id'>): T {
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
