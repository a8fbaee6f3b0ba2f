import { randomBytes } from 'node:crypto';
import { QueueEvents, type Job } from 'bullmq';
import { doctorReportSchema } from '../../doctor/report-schema.js';
import type { DoctorReport } from '../../doctor/scan.js';
import { clusterQueueName, doctorJobId, jobRetention } from '../names.js';
import { closeQueueEvents, connectRedis } from '../redis.js';
import { SharedTokenBuckets } from '../token-buckets.js';
import type { LifecycleContext } from './context.js';

/** How long the bot waits for a worker's doctor before saying it did not answer. */
const doctorTimeoutMs = 60_000;

export type DoctorResult = { ok: true; report: DoctorReport } | { ok: false; message: string };

/**
 * Keeps the report's summary as the cluster's last doctor result, whoever asked (a person, the
 * schedule, a paste's candidates, a finished remedy's check). A result that cannot be kept is logged
 * and the report is still answered.
 */
async function keepResult(core: LifecycleContext, cluster: string, requestedBy: string, report: DoctorReport, entries: readonly string[] | undefined): Promise<void> {
  await core.doctorResults.record(cluster, requestedBy, report, entries).catch((err: unknown) => core.options.logger.warn({ err: (err as Error).message, cluster }, 'could not keep the doctor result'));
}

/**
 * One read-only doctor job on a cluster's queue, and its answer. The job's result comes back through
 * the queue's events (a listener of its own, for this one job), and is checked before it is shown.
 */
export async function runDoctor(core: LifecycleContext, cluster: string, requestedBy: string, only?: { entries?: readonly string[]; timeoutMs?: number }): Promise<DoctorResult> {
  const { config } = core.options;
  const requestId = randomBytes(6).toString('hex');
  const connection = connectRedis(config.redisUrl, 'worker');
  // Its retries during a Redis outage go to the outage log (one line), not to stderr (one stack each).
  core.outage.watchConnection(connection);
  const events = new QueueEvents(clusterQueueName(cluster), { connection, prefix: config.queuePrefix });
  core.outage.watchErrors(events, `events of ${clusterQueueName(cluster)} (a doctor)`);
  let queued: Job | undefined;
  try {
    await events.waitUntilReady();
    const job = (queued = await core.queue(cluster).add('doctor', { requestId, cluster, requestedBy, ...(only?.entries ? { entries: [...only.entries] } : {}) }, { jobId: doctorJobId(requestId), attempts: 1, ...jobRetention }));
    const returned: unknown = await job.waitUntilFinished(events, only?.timeoutMs ?? doctorTimeoutMs);
    const report = doctorReportSchema.safeParse(returned);
    if (!report.success) return { ok: false, message: `the worker answered with a report this bot cannot read (${report.error.issues[0]?.message}); is it older than the bot?` };
    await core.record('doctor', requestedBy, { cluster }, `${report.data.findings.filter((f) => f.state === 'present').length} present`);
    await keepResult(core, cluster, requestedBy, report.data, only?.entries);
    return { ok: true, report: report.data };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // Nobody waits for it any more: a job no worker has taken is removed, so that a worker started
    // later does not read the cluster for answers already given (a job being run is left to finish).
    if (queued && (await queued.isWaiting().catch(() => false))) await queued.remove().catch(() => undefined);
    return { ok: false, message: /timed out|before finished/i.test(message) ? `no worker of ${cluster} answered within ${(only?.timeoutMs ?? doctorTimeoutMs) / 1000} s` : message };
  } finally {
    await closeQueueEvents(events).catch(() => undefined);
    await connection.quit().catch(() => undefined);
  }
}

const presentCount = (r: DoctorResult) => (r.ok ? `${r.report.findings.filter((f) => f.state === 'present').length} present` : 'could not run');

/**
 * Full doctors (every entry) share the one under way on the same cluster in this process: a person,
 * the schedule or a flood of commands asking while a scan runs get its answer, rather than a scan each
 * (a full scan lists every kind the detectors read: cheap to ask for, not to serve). Each waits no
 * longer than its own timeout, and each is audited as asked by whoever asked.
 */
export class SharedDoctors {
  private readonly underWay = new Map<string, Promise<DoctorResult>>();

  constructor(private readonly core: LifecycleContext) {}

  run(cluster: string, requestedBy: string, only?: { entries?: readonly string[]; timeoutMs?: number }): Promise<DoctorResult> {
    if (only?.entries) return runDoctor(this.core, cluster, requestedBy, only);
    const running = this.underWay.get(cluster);
    if (running) return this.join(running, cluster, requestedBy, only?.timeoutMs ?? doctorTimeoutMs);
    const started = runDoctor(this.core, cluster, requestedBy, only).finally(() => {
      if (this.underWay.get(cluster) === started) this.underWay.delete(cluster);
    });
    this.underWay.set(cluster, started);
    return started;
  }

  private async join(running: Promise<DoctorResult>, cluster: string, requestedBy: string, timeoutMs: number): Promise<DoctorResult> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<DoctorResult>((resolve) => (timer = setTimeout(() => resolve({ ok: false, message: `no worker of ${cluster} answered within ${timeoutMs / 1000} s` }), timeoutMs)));
    const result = await Promise.race([running, late]).finally(() => clearTimeout(timer));
    await this.core.record('doctor', requestedBy, { cluster }, `${presentCount(result)} (shared the doctor under way)`);
    return result;
  }
}

/** Whether a person may ask for another doctor now: the per-person budget of a sliding minute, shared by every replica. */
export async function admitDoctor(core: LifecycleContext, user: string, cluster: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const perMinute = core.options.config.doctorsPerUserPerMinute;
  const draw = await new SharedTokenBuckets(core.redis, core.options.config.queuePrefix).draw([{ key: `doctor-user:${user}`, perMinute }]);
  if (draw.ok) return { ok: true };
  await core.record('refused', user, { cluster }, 'doctor: per-person limit');
  const doctors = perMinute === 1 ? '1 doctor' : `${perMinute} doctors`;
  return { ok: false, message: `You have asked for ${doctors} in the last minute, the most one person may; the last result is in \`/platform status ${cluster}\`. Try again in ${Math.max(1, Math.ceil(draw.refillMs / 1000))} s.` };
}
