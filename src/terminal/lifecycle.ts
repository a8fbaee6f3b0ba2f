import type { Logger } from 'pino';
import { approvalRules, type Config } from '../config.js';
import { RemedyCoordinator, type Answer } from '../jobs/lifecycle/coordinator.js';
import { connectRedis, safeRedisUrl } from '../jobs/redis.js';
import { RedisOutageLog } from '../jobs/redis-outage.js';
import { RequestStore } from '../jobs/requests.js';
import { secondApprover, terminalPolicy } from './approvers.js';
import { TerminalReporter, type TerminalAction, type TerminalIO } from './reporter.js';

/** What a terminal session's remedies are built from. */
export interface TerminalLifecycleOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** The local operator, e.g. `terminal:alice`. */
  readonly user: string;
  /** The session's Redis outage log, shared with its worker; else one of its own. */
  readonly outage?: RedisOutageLog;
  readonly io: TerminalIO;
}

/** A terminal session's side of the queues: the lifecycle, and how an answer typed at a prompt reaches it. */
export interface TerminalLifecycle {
  readonly coordinator: RemedyCoordinator;
  /** Carries out what an answer to a question asks, as the person at this terminal, and prints why not. */
  perform(action: TerminalAction): Promise<void>;
  close(): Promise<void>;
}

/**
 * The terminal's wiring of the lifecycle, in one order: the reporter (it only prints and asks), the
 * request store, then the coordinator given both. Answers come back as values, never as closures
 * over a coordinator that does not exist yet.
 */
export function terminalLifecycle(options: TerminalLifecycleOptions): TerminalLifecycle {
  const { config, logger, user, io } = options;
  const twoPersonRule = (cluster: string) => approvalRules(config, cluster).twoPersonRule;
  const reporter = new TerminalReporter(io, (plan) => twoPersonRule(plan.cluster));
  const outage = options.outage ?? new RedisOutageLog({ logger, redis: safeRedisUrl(config.redisUrl) });
  const redis = connectRedis(config.redisUrl, 'client');
  outage.watchConnection(redis);
  const store = new RequestStore(redis, config.queuePrefix);
  const coordinator = new RemedyCoordinator({ config, logger, redis, store, outage, reporter, policy: terminalPolicy(user, twoPersonRule) });
  const say = (a: Answer) => {
    if (!a.ok || a.message) io.print(a.message ?? '');
  };
  return {
    coordinator,
    async perform(action) {
      const { req } = action;
      switch (action.kind) {
        case 'approve':
          return say(await coordinator.approve(req.id, action.plan.stageId, req.attempt ?? '', user));
        case 'approve-as': {
          const who = secondApprover(user, action.name);
          if (!who) {
            io.print('That name is not a second person. The second approver types their own name.');
            return reporter.askApproval(req, action.plan);
          }
          return say(await coordinator.approve(req.id, action.plan.stageId, req.attempt ?? '', who));
        }
        case 'deny':
          return say(await coordinator.deny(req.id, action.plan.stageId, req.attempt ?? '', user));
        case 'choose': {
          // The chosen answer was echoed already when typed; only a refusal is news.
          const chosen = await coordinator.choose(req.id, action.stageId, action.choiceId, user, req.attempt);
          if (!chosen.ok) io.print(chosen.message ?? '');
          return;
        }
        case 'replan':
          return say(await coordinator.replan(req.id, req.stageId, user));
        case 'stop':
          return io.settled(req.id, true);
      }
    },
    async close() {
      await coordinator.close();
      await redis.quit().catch(() => undefined);
    },
  };
}
