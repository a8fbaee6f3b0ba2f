import type { Redis } from 'ioredis';

/** What happened, in the audit trail's words. */
export type AuditAction =
  | 'requested'
  | 'refused'
  | 'planned'
  | 'approved'
  | 'approval-refused'
  | 'denied'
  | 'expired'
  | 'cancelled'
  | 'step'
  | 'outcome'
  | 'decision'
  /** Redis lost the state of an open remedy; it was ended. */
  | 'lost';

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
    const fields: string[] = ['at', new Date().toISOString()];
    for (const [k, v] of Object.entries(r)) if (v !== undefined) fields.push(k, String(v).slice(0, 2000));
    const minId = `${Date.now() - this.retentionDays * 86_400_000}-0`;
    // With no record for a whole retention, every record is past it: the stream itself may go.
    await this.redis.multi().xadd(this.key, '*', ...fields).xtrim(this.key, 'MINID', '~', minId).expire(this.key, this.retentionDays * 86_400).exec();
  }

  /** The newest `n` records, newest first. */
  async latest(n: number): Promise<AuditRecord[]> {
    const rows = (await this.redis.xrevrange(this.key, '+', '-', 'COUNT', n)) as [string, string[]][];
    return rows.map(([id, kv]) => {
      const o: Record<string, string> = { id };
      for (let i = 0; i + 1 < kv.length; i += 2) o[kv[i]!] = kv[i + 1]!;
      return o as unknown as AuditRecord;
    });
  }
}
