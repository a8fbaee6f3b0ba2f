import type { KubeConfig } from '@kubernetes/client-node';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { catalogue, findEntry, findStage } from '../catalogue/index.js';
import { ClusterGateway } from '../cluster/gateway.js';
import type { ClusterConfig, Config } from '../config.js';
import { toUserError, UserFacingError } from '../errors.js';
import type { MedicMetrics } from '../observability/metrics.js';
import { planStage } from '../remedies/planner.js';
import { runPlan, type StepLedger, type StepProgress } from '../remedies/runner.js';
import type { StepContext } from '../remedies/steps/index.js';
import type { Plan } from '../remedies/plan.js';
import { scan, verifyEntry, type DoctorReport, type Verification } from '../doctor/index.js';
import { cancelKey, clusterQueueName, doctorJobSchema, jobRetention, planJobSchema, runJobId, runJobSchema, type RunResult } from './names.js';
import { closeWorker, connectRedis, safeRedisUrl } from './redis.js';
import { RedisOutageLog } from './redis-outage.js';
import { seal } from './sealing.js';

/** What a cluster's worker needs. */
export interface ClusterWorkerOptions {
  readonly config: Config;
  readonly cluster: ClusterConfig;
  readonly kubeConfig: KubeConfig;
  readonly logger: Logger;
  /** Interval between checks while verifying; default 1 s. */
  readonly pollMs?: number;
  /** Times each step by kind. */
  readonly metrics?: MedicMetrics;
  /** The process's Redis outage log, when it has other connections too (the terminal); else one of its own. */
  readonly outage?: RedisOutageLog;
}

/** A running worker of one cluster's queue. */
export interface ClusterWorker {
  readonly worker: Worker;
  /** How many jobs (plans, runs, doctors) it is carrying out now. */
  readonly running: number;
  /** Stops taking jobs and waits for the running one; `force` leaves it (its lock expires, the ledger resumes it). */
  close(force?: boolean): Promise<void>;
}

/**
 * The step ledger of one approval attempt, in a Redis hash that outlives any one worker. Keyed by the
 * attempt, not the plan's hash: a plan made again after a failure may be identical, and must not find
 * its steps marked done by the run that failed.
 */
function redisLedger(redis: Redis, prefix: string, plan: Plan, attempt: string): StepLedger {
  const key = `${prefix}:ledger:${plan.requestId}:${plan.stageId}:${attempt}`;
  const ttl = 7 * 24 * 3600;
  return {
    async state(index) {
      const v = await redis.hget(key, String(index));
      return v === 'started' || v === 'done' ? v : undefined;
    },
    async started(index) {
      await redis.multi().hset(key, String(index), 'started').expire(key, ttl).exec();
    },
    async done(index) {
      await redis.multi().hset(key, String(index), 'done').expire(key, ttl).exec();
    },
  };
}

/**
 * Every failure of a job is final (jobs are never retried), and only a UserFacingError's safe message
 * reaches people; anything unexpected is logged here and reported as an internal error.
 */
function finalFailure(err: unknown, requestId: string, logger: Logger): UnrecoverableError {
  const safe = toUserError(err, { internal: (name) => `Internal error in the worker (${name}); see the worker's log for request ${requestId}.` });
  if (safe.code === 'internal') logger.error({ err, requestId }, 'remedy job failed with an internal error');
  return new UnrecoverableError(safe.safeMessage);
}

/**
 * The worker's two connections: BullMQ's (blocking commands) and the one for its own writes (the step
 * ledger, a wait's continuation job, the cancel flag). Both wait for Redis to come back rather than
 * fail: a write that failed during a Redis restart ended a remedy mid-run with an internal error,
 * where the same write a second later would have succeeded. Nobody waits on a worker's answer, and a
 * worker that waits too long loses its job's lock to another, which resumes from the ledger.
 */
export function workerConnections(url: string): { queueConnection: Redis; workerConnection: Redis } {
  return { queueConnection: connectRedis(url, 'worker'), workerConnection: connectRedis(url, 'worker') };
}

/** QUIT, or, when Redis does not answer within 2 s (it is away, and these connections wait for it), drop the connection. */
async function quitOrDrop(connection: Redis): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), 2_000)));
  const answer = await Promise.race([connection.quit().catch(() => 'failed'), late]);
  clearTimeout(timer);
  if (answer !== 'OK') connection.disconnect();
}

/**
 * Starts the worker of one cluster: plan jobs resolve targets read-only, run jobs carry out exactly
 * the approved plan. Jobs are not retried: a step that is not idempotent must never run twice blindly.
 */
export function startClusterWorker(options: ClusterWorkerOptions): ClusterWorker {
  const { config, cluster, logger } = options;
  const queueName = clusterQueueName(cluster.name);
  const ctx: StepContext = {
    gateway: new ClusterGateway(options.kubeConfig),
    names: cluster,
    ...(config.waitOverrideSeconds !== undefined ? { waitOverrideSeconds: config.waitOverrideSeconds } : {}),
    pollMs: options.pollMs ?? 1_000,
    now: () => new Date(),
  };
  // BullMQ does not close connections it was handed; close() quits them.
  const { queueConnection, workerConnection } = workerConnections(config.redisUrl);
  // While Redis is away (a restart, a failover) ioredis reconnects by itself; the log says so once.
  const outage = options.outage ?? new RedisOutageLog({ logger, redis: safeRedisUrl(config.redisUrl) });
  outage.watchConnection(queueConnection);
  outage.watchConnection(workerConnection);
  const continuations = new Queue(queueName, { connection: queueConnection, prefix: config.queuePrefix });
  outage.watchErrors(continuations, 'continuation queue');

  async function plan(job: Job): Promise<Plan> {
    const parsed = planJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UserFacingError('job-refused', `Plan job ${job.id} has invalid data: ${parsed.error.issues[0]?.message}`);
    const data = parsed.data;
    if (data.cluster !== cluster.name) throw new UserFacingError('job-refused', `Plan for cluster ${data.cluster} reached the worker of ${cluster.name}.`);
    const entry = findEntry(data.entryId);
    const stage = entry && findStage(entry, data.stageId);
    if (!entry || !stage) throw new UserFacingError('job-refused', `This worker does not know ${data.entryId}/${data.stageId}; is it older than the bot?`);
    return planStage(ctx, { requestId: data.requestId, cluster: cluster.name, entry, stage, params: data.params });
  }

  /** Read-only: every entry's detector, on one shared read of the cluster. */
  async function doctor(job: Job): Promise<DoctorReport> {
    const parsed = doctorJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UserFacingError('job-refused', `Doctor job ${job.id} has invalid data: ${parsed.error.issues[0]?.message}`);
    if (parsed.data.cluster !== cluster.name) throw new UserFacingError('job-refused', `A doctor for cluster ${parsed.data.cluster} reached the worker of ${cluster.name}.`);
    const wanted = parsed.data.entries;
    if (wanted) {
      const unknown = wanted.filter((id) => !findEntry(id));
      if (unknown.length > 0) throw new UserFacingError('job-refused', `This worker does not know ${unknown.join(', ')}; is it older than the bot?`);
    }
    return scan(ctx.gateway, cluster, wanted ? catalogue.filter((e) => wanted.includes(e.id)) : catalogue);
  }

  /**
   * The entry's detector after the remedy's last stage, read-only: again while the symptom is still
   * present, for up to the settle window. A stage the guide follows with "still failing?" is not
   * looked at: there the person's answer decides, as the guide says.
   */
  async function verify(p: Plan, cancelled: () => Promise<boolean>, job: Job): Promise<Verification | undefined> {
    const entry = findEntry(p.entryId);
    const stage = entry && findStage(entry, p.stageId);
    if (!entry || !stage || stage.then) return undefined;
    try {
      // While it looks (again for up to the settle window while the symptom still shows), the thread says so.
      if (entry.detector && entry.detector.kind !== 'notObservable') {
        const settle = config.verifySettleSeconds;
        const message = `Every step finished; the doctor is looking whether the symptom is gone${settle > 0 ? ` (again for up to ${settle} s while it still shows)` : ''}.`;
        await job.updateProgress({ index: p.steps.length - 1, status: 'looking', message } satisfies StepProgress);
      }
      return await verifyEntry(ctx.gateway, cluster, entry, { settleMs: config.verifySettleSeconds * 1000, stop: cancelled });
    } catch (err) {
      logger.warn({ err: (err as Error).message, requestId: p.requestId }, 'could not look at the symptom after the run');
      return undefined;
    }
  }

  async function run(job: Job): Promise<RunResult> {
    const parsed = runJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UserFacingError('job-refused', `Run job ${job.id} has invalid data: ${parsed.error.issues[0]?.message}`);
    const { plan: p, fromStep } = parsed.data;
    if (p.cluster !== cluster.name) throw new UserFacingError('job-refused', `Plan for cluster ${p.cluster} reached the worker of ${cluster.name}.`);
    const sealTo = parsed.data.sealTo;
    const runCtx: StepContext = sealTo ? { ...ctx, seal: (plaintext) => seal(sealTo, plaintext) } : ctx;
    // Runs queued by an older bot carry no attempt; their plan's hash stood for it then.
    const attempt = parsed.data.attempt ?? p.hash.slice(0, 16);
    const ledger = redisLedger(queueConnection, config.queuePrefix, p, attempt);
    const startedAt = new Map<number, number>();
    const timeStep = (index: number, status: string) => {
      if (status === 'started') return void startedAt.set(index, performance.now());
      const t0 = startedAt.get(index);
      const kind = p.steps.find((s) => s.index === index)?.kind;
      if (t0 !== undefined && kind) options.metrics?.stepFinished(kind, (performance.now() - t0) / 1000);
    };
    const cancelled = async () => (await queueConnection.exists(cancelKey(config.queuePrefix, p.requestId))) === 1;
    const outcome = await runPlan(runCtx, p, fromStep, {
      report: (progress) => {
        timeStep(progress.index, progress.status);
        return job.updateProgress({ ...progress });
      },
      ledger,
      cancelled,
    });
    if (outcome.status === 'completed') {
      // Every step finished; whether the symptom is gone is the detector's to say, in the same job.
      const verification = await verify(p, cancelled, job);
      return verification ? { ...outcome, verification } : outcome;
    }
    if (outcome.status === 'waiting') {
      // The rest of the stage continues as a delayed job with a derived id, so a retried job adds nothing.
      await continuations.add(
        'run',
        { ...parsed.data, fromStep: outcome.resumeFrom },
        { jobId: runJobId(p.requestId, p.stageId, attempt, outcome.resumeFrom), delay: outcome.seconds * 1000, attempts: 1, ...jobRetention },
      );
      await ledger.done(outcome.resumeFrom - 1);
    }
    return outcome;
  }

  let running = 0;
  const worker = new Worker(
    queueName,
    async (job: Job) => {
      const requestId = String((job.data as { requestId?: string; plan?: { requestId?: string } }).requestId ?? (job.data as { plan?: { requestId?: string } }).plan?.requestId ?? '?');
      const log = logger.child({ job: job.id, name: job.name, requestId });
      log.info('job started');
      running += 1;
      try {
        const result = job.name === 'plan' ? await plan(job) : job.name === 'run' ? await run(job) : job.name === 'doctor' ? await doctor(job) : undefined;
        if (result === undefined) throw new UserFacingError('job-refused', `Unknown job kind "${job.name}".`);
        log.info({ status: 'status' in result ? result.status : 'findings' in result ? 'examined' : 'planned' }, 'job finished');
        return result;
      } catch (err) {
        throw finalFailure(err, requestId, log);
      } finally {
        running -= 1;
      }
    },
    {
      connection: workerConnection,
      prefix: config.queuePrefix,
      concurrency: 4,
      // A live worker renews its lock every lockDuration/2, however long a step verifies. A dead one
      // (crash, SIGKILL, lost node) loses it after lockDuration; the stalled check, every half lock,
      // then hands the job to another worker, which resumes from the step ledger. Two recoveries are
      // allowed: a third stall means something kills workers on this job, and it fails visibly.
      lockDuration: config.workerLockSeconds * 1000,
      stalledInterval: Math.max(1000, (config.workerLockSeconds * 1000) / 2),
      maxStalledCount: 2,
    },
  );
  outage.watchErrors(worker, 'worker');

  return {
    worker,
    get running() {
      return running;
    },
    async close(force = false) {
      await closeWorker(worker, force);
      await continuations.close();
      await Promise.allSettled([quitOrDrop(queueConnection), quitOrDrop(workerConnection)]);
    },
  };
}
