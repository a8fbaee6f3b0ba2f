import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { DoctorReport } from '../doctor/scan.js';
import { redact } from '../redact.js';

/** A symptom a doctor saw, in short: the entry and one line of its evidence (redacted), and how many lines more it had. */
const presentSchema = z.object({ id: z.string(), ref: z.string(), title: z.string(), evidence: z.string(), more: z.number() });
export type PresentSymptom = z.infer<typeof presentSchema>;

const runSchema = z.object({
  /** When the report came back. */
  at: z.string(),
  /** Who or what asked for it: a person, or the scheduled doctor. */
  by: z.string(),
  tookMs: z.number(),
  /** Entries judged (those with a detector). */
  checked: z.number(),
  present: z.array(presentSchema),
  /** Entries it could not judge (forbidden, unreachable, not installed). */
  unknown: z.number(),
});
/** The last doctor run over the whole catalogue on a cluster, in short. */
export type DoctorRun = z.infer<typeof runSchema>;

const recheckSchema = z.object({
  id: z.string(),
  at: z.string(),
  by: z.string(),
  state: z.enum(['present', 'absent']),
  symptom: presentSchema.optional(),
  /** The remedy whose run looked at its entry after its last stage; absent for a paste's candidates. */
  remedy: z.string().optional(),
});
/** A later check of one entry alone (a paste's candidates, a finished remedy's entry): present again, or cleared. */
export type EntryRecheck = z.infer<typeof recheckSchema>;

/** What any replica knows of a cluster's last doctor: the last full run, and the entries checked alone since. */
export interface ClusterDoctor {
  readonly cluster: string;
  /** Undefined: the doctor has never run on the whole catalogue there (that this Redis remembers). */
  readonly run?: DoctorRun;
  /** Entries checked alone after the run (or with no run), newest first. */
  readonly rechecked: readonly EntryRecheck[];
}

/** How long a result is kept after it was written: a cluster nobody checks for a month shows "never run". */
const ttlSeconds = 30 * 24 * 3600;
/** Evidence is kept to one short line: what a status answer shows, never a whole log. */
const evidenceMax = 200;

const short = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

function summarise(f: DoctorReport['findings'][number]): PresentSymptom {
  const first = f.evidence[0];
  return { id: f.id, ref: f.ref, title: short(f.title, 120), evidence: first ? short(redact(`${first.object} ${first.detail}`), evidenceMax) : '', more: Math.max(0, f.evidence.length - 1) };
}

/**
 * The last doctor result per cluster, in Redis under the deployment's prefix so every bot replica
 * reads the same: a compact summary (when, by whom, the symptoms present with one evidence line each),
 * never the whole report. A run over the whole catalogue replaces what was kept; a run over a few
 * entries updates those entries alone.
 */
export class DoctorResults {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(cluster: string): string {
    return `${this.prefix}:doctor-result:${cluster}`;
  }

  /**
   * Keeps a report that came back; `entries` names the entries it was limited to, when it was, and
   * `remedy` the remedy whose look after its last stage it is.
   */
  async record(cluster: string, by: string, report: DoctorReport, entries?: readonly string[], now = new Date(), remedy?: string): Promise<void> {
    const at = now.toISOString();
    const key = this.key(cluster);
    const write = this.redis.multi();
    if (!entries) {
      const run: DoctorRun = {
        at,
        by,
        tookMs: report.tookMs,
        checked: report.findings.filter((f) => f.reason !== 'no-detector').length,
        present: report.findings.filter((f) => f.state === 'present').map(summarise),
        unknown: report.findings.filter((f) => f.state === 'unknown' && f.reason !== 'no-detector').length,
      };
      write.del(key).hset(key, 'run', JSON.stringify(run));
    } else {
      // Only what the check could tell: an entry it could not judge keeps what was known of it.
      const told = report.findings.filter((f) => entries.includes(f.id) && (f.state === 'present' || f.state === 'absent'));
      if (told.length === 0) return;
      for (const f of told) {
        const recheck: EntryRecheck = { id: f.id, at, by, state: f.state as 'present' | 'absent', ...(f.state === 'present' ? { symptom: summarise(f) } : {}), ...(remedy ? { remedy } : {}) };
        write.hset(key, `entry:${f.id}`, JSON.stringify(recheck));
      }
    }
    await write.expire(key, ttlSeconds).exec();
  }

  /** What is known of each cluster's doctor, in the order given. */
  async read(clusters: readonly string[]): Promise<ClusterDoctor[]> {
    if (clusters.length === 0) return [];
    const read = this.redis.pipeline();
    for (const c of clusters) read.hgetall(this.key(c));
    const replies = (await read.exec()) ?? [];
    return clusters.map((cluster, i) => {
      const [err, raw] = replies[i] ?? [];
      if (err) throw err;
      return parse(cluster, (raw ?? {}) as Record<string, string>);
    });
  }
}

function json(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A stored result, checked: a field that does not read (written by another version) is left out, not shown half. */
function parse(cluster: string, raw: Record<string, string>): ClusterDoctor {
  const run = runSchema.safeParse(json(raw.run));
  const rechecked = Object.entries(raw)
    .filter(([field]) => field.startsWith('entry:'))
    .flatMap(([, v]) => {
      const r = recheckSchema.safeParse(json(v));
      return r.success ? [r.data] : [];
    })
    .sort((a, b) => b.at.localeCompare(a.at));
  return { cluster, ...(run.success ? { run: run.data } : {}), rechecked };
}
