import type { AuditTrail } from '../audit.js';
import { RedisEpoch } from '../epoch.js';
import type { ClusterDoctor } from '../doctor-results.js';
import { planJobId } from '../names.js';
import { connectRedis } from '../redis.js';
import type { RemedyRequest, RequestStore } from '../requests.js';
import { requestFix, type FixRequest } from './admission.js';
import { ApprovalDecisions } from './approvals.js';
import { LifecycleContext, type Answer, type CoordinatorOptions } from './context.js';
import { admitDoctor, SharedDoctors, type DoctorResult } from './doctor.js';
import { Expiry } from './expiry.js';
import { endLostRemedy, LostStateWatch } from './lost-state.js';
import { ClusterEventFeed } from './queue-events.js';
import { Steering } from './steering.js';
import { WorkerEvents } from './worker-events.js';

export type { ApprovalPolicy, ApproverCheck } from './approval-policy.js';
export type { Answer, CoordinatorOptions } from './context.js';
export type { Posted, RemedyEnd, RemedyReporter } from './reporter.js';
export type { Announcement, FixRequest } from './admission.js';
export type { DoctorResult } from './doctor.js';
export type { ClusterDoctor } from '../doctor-results.js';

/**
 * The bot's side of the queues: it admits fixes, records approvals exactly once per attempt, enqueues
 * runs of exactly the approved plan, and hands queue events (queue-events.ts, worker-events.ts) and
 * deadlines (expiry.ts) to their transitions. It never talks to a cluster, and renders nothing: the
 * surface's reporter does. Every decision is appended to the audit trail.
 */
export class RemedyCoordinator {
  private readonly core: LifecycleContext;
  private readonly expiry: Expiry;
  private readonly feed: ClusterEventFeed;
  private readonly approvals: ApprovalDecisions;
  private readonly steering: Steering;
  private readonly doctors: SharedDoctors;
  private deadlineConnection: ReturnType<typeof connectRedis> | undefined;
  /** Notices that Redis lost the state of open remedies, and ends them in their threads. */
  private readonly watch: LostStateWatch;

  constructor(private readonly options: CoordinatorOptions) {
    const core = new LifecycleContext(options);
    this.core = core;
    this.expiry = new Expiry(core);
    this.approvals = new ApprovalDecisions(core, this.expiry);
    this.steering = new Steering(core);
    this.doctors = new SharedDoctors(core);
    this.watch = new LostStateWatch({
      store: core.store,
      epoch: new RedisEpoch(core.redis, options.config.queuePrefix),
      logger: options.logger,
      checkMs: options.config.lostStateCheckSeconds * 1000,
      graceMs: options.config.lostStateGraceSeconds * 1000,
      continuationExists: async (req) => (await core.queue(req.cluster).getJobState(req.resumeJob ?? '')) !== 'unknown',
      planExists: async (req) => (await core.queue(req.cluster).getJobState(planJobId(req.id, req.stageId, req.attempt ?? ''))) !== 'unknown',
      lost: (req, plan, cause) => endLostRemedy(core, req, plan, cause),
    });
    this.feed = new ClusterEventFeed(core, new WorkerEvents(core), () => this.watch.check());
    // A reconnect is when an emptied Redis shows first.
    core.redis.on('ready', () => void this.watch.check());
  }

  get store(): RequestStore {
    return this.core.store;
  }

  get audit(): AuditTrail {
    return this.core.audit;
  }

  /**
   * Subscribes to the queue events of every cluster, from where this deployment last read them, so a
   * bot that restarts misses nothing, and starts handling deadlines; resolves once they listen.
   */
  async start(): Promise<void> {
    await this.watch.start();
    this.deadlineConnection = connectRedis(this.options.config.redisUrl, 'worker');
    this.core.outage.watchConnection(this.deadlineConnection);
    this.core.deadlines.start(this.deadlineConnection, (kind, data) => this.expiry.due(kind, data));
    await this.feed.start();
  }

  /** Stops reading events and deadlines and lets queued reports finish; the Redis connection given stays open for its owner. */
  async close(): Promise<void> {
    this.watch.stop();
    await this.core.deadlines.close();
    await this.feed.close();
    await this.core.close();
    await this.deadlineConnection?.quit().catch(() => undefined);
  }

  /**
   * Starts a fix. Every check comes first (see admission.ts); only then is the fix announced and its
   * first plan queued, so a refusal is the person's alone and never counts against their limit.
   */
  requestFix(req: FixRequest): Promise<{ ok: true; request: RemedyRequest } | { ok: false; message: string }> {
    return requestFix(this.core, req);
  }

  /**
   * One read-only doctor job on a cluster's queue: every entry's detector, or only `entries`'. A full
   * doctor asked while another runs on the same cluster shares it (see SharedDoctors).
   */
  runDoctor(cluster: string, requestedBy: string, only?: { entries?: readonly string[]; timeoutMs?: number }): Promise<DoctorResult> {
    return this.doctors.run(cluster, requestedBy, only);
  }

  /** Whether a person may ask for a doctor now (`doctorsPerUserPerMinute`), or the refusal to show them. */
  admitDoctor(user: string, cluster: string): Promise<{ ok: true } | { ok: false; message: string }> {
    return admitDoctor(this.core, user, cluster);
  }

  /** The remedies not finished, on every cluster, as every replica sees them (oldest first). */
  openRemedies(): Promise<RemedyRequest[]> {
    return this.core.store.open();
  }

  /** The last doctor result of each cluster named (what any replica recorded). */
  lastDoctor(clusters: readonly string[]): Promise<ClusterDoctor[]> {
    return this.core.doctorResults.read(clusters);
  }

  /** The clusters whose remedies and audit records a person may see as an approver, and why none when a group could not be read. */
  async approvableClusters(user: string): Promise<{ clusters: string[]; note?: string }> {
    const clusters: string[] = [];
    let note: string | undefined;
    for (const c of this.options.config.clusters) {
      const checked = await this.options.policy.check(user, c.name);
      if (checked.approver) clusters.push(c.name);
      else note ??= checked.note;
    }
    return { clusters, ...(clusters.length === 0 && note ? { note } : {}) };
  }

  /** An approver's click on an attempt's card. Exactly one decision of an attempt wins; anyone else is told why not. */
  approve(requestId: string, stageId: string, attempt: string, user: string): Promise<Answer> {
    return this.approvals.approve(requestId, stageId, attempt, user);
  }

  /** A denial, by an approver or by the person who asked. */
  deny(requestId: string, stageId: string, attempt: string, user: string): Promise<Answer> {
    return this.approvals.deny(requestId, stageId, attempt, user);
  }

  /** Cancels a remedy that waits or runs (see steering.ts). */
  cancel(requestId: string, user: string): Promise<Answer> {
    return this.steering.cancel(requestId, user);
  }

  /** An answer to the guide's question after a stage; `attempt` is the run that asked (absent on older buttons). */
  choose(requestId: string, stageId: string, choiceId: string, user: string, attempt?: string): Promise<Answer> {
    return this.steering.choose(requestId, stageId, choiceId, user, attempt);
  }

  /** Plans the current stage again, as a new approval attempt. */
  replan(requestId: string, stageId: string, user: string): Promise<Answer> {
    return this.steering.replan(requestId, stageId, user);
  }
}
