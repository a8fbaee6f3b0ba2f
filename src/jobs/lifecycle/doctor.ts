import { randomBytes } from 'node:crypto';
import { QueueEvents, type Job } from 'bullmq';
import { doctorReportSchema } from '../../doctor/report-schema.js';
import type { DoctorReport } from '../../doctor/scan.js';
import { clusterQueueName, doctorJobId, jobRetention } from '../names.js';
import { connectRedis } from '../redis.js';
import type { LifecycleContext } from './context.js';

/** How long the bot waits for a worker's doctor before saying it did not answer. */
const doctorTimeoutMs = 60_000;

export type DoctorResult = { ok: true; report: DoctorReport } | { ok: false; message: string };

/**
 * One read-only doctor job on a cluster's queue, and its answer. The job's result comes back through
 * the queue's events (a listener of its own, for this one job), and is checked before it is shown.
 */
export async function runDoctor(core: LifecycleContext, cluster: string, requestedBy: string, only?: { entries?: readonly string[]; timeoutMs?: number }): Promise<DoctorResult> {
  const { config } = core.options;
  const requestId = randomBytes(6).toString('hex');
  const connection = connectRedis(config.redisUrl, 'worker');
  const events = new QueueEvents(clusterQueueName(cluster), { connection, prefix: config.queuePrefix });
  let job: Job | undefined;
  try {
    await events.waitUntilReady();
    job = await core.queue(cluster).add('doctor', { requestId, cluster, requestedBy, ...(only?.entries ? { entries: [...only.entries] } : {}) }, { jobId: doctorJobId(requestId), attempts: 1, ...jobRetention });
    const returned: unknown = await job.waitUntilFinished(events, only?.timeoutMs ?? doctorTimeoutMs);
    const report = doctorReportSchema.safeParse(returned);
    if (!report.success) return { ok: false, message: `the worker answered with a report this bot cannot read (${report.error.issues[0]?.message}); is it older than the bot?` };
    await core.record('doctor', requestedBy, { cluster }, `${report.data.findings.filter((f) => f.state === 'present').length} present`);
    return { ok: true, report: report.data };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // Nobody took it in time: it goes, or a worker that comes back would run every doctor asked of it meanwhile.
    if (job && (await job.getState().catch(() => undefined)) === 'waiting') await job.remove().catch(() => undefined);
    return { ok: false, message: /timed out|before finished/i.test(message) ? `no worker of ${cluster} answered within ${(only?.timeoutMs ?? doctorTimeoutMs) / 1000} s` : message };
  } finally {
    await events.close().catch(() => undefined);
    await connection.quit().catch(() => undefined);
  }
}
