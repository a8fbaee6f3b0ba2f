import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { approvalRules, type Config } from '../config.js';
import type { ApprovalPolicy, ApproverCheck } from '../jobs/lifecycle/approval-policy.js';
import { minutesText } from '../jobs/lifecycle/durations.js';

/** Options of the configured policy; `now` is the clock of the user group cache (tests move it). */
export interface PolicyOptions {
  readonly now?: () => number;
}

const mention = (u: string) => `<@${u}>`;
const groupMention = (g: string) => `<!subteam^${g}>`;

/**
 * How long a user group's members are used before Slack is asked again (at most the stale bound), where the
 * answer only shapes what is shown (who may approve). An approval itself always asks Slack first.
 */
const groupFreshMs = 5 * 60 * 1000;

/**
 * The approval policy of the configuration: per cluster, approvers by user id and by user group (the
 * groups resolved through the Web API and cached), and the two-person rule for destructive steps.
 * When Slack cannot tell a group's members, the members read last are used only while they are younger
 * than `approverGroupStaleMinutes`; after that the group's members cannot approve (fail closed), and
 * the person is told why. An approval reads the group afresh, so someone taken off it cannot approve a
 * minute later.
 */
export function configuredApprovers(config: Config, client?: webApi.WebClient, logger?: Logger, options: PolicyOptions = {}): ApprovalPolicy {
  const now = options.now ?? Date.now;
  const staleMs = config.approverGroupStaleMinutes * 60_000;
  const freshMs = Math.min(groupFreshMs, staleMs);
  const cache = new Map<string, { at: number; users: Set<string> }>();

  /**
   * The group's members; undefined when Slack cannot tell and no list read within the bound is at hand.
   * `fresh`: Slack is asked even when a recent list is at hand (an approval's decision).
   */
  async function members(group: string, fresh: boolean): Promise<Set<string> | undefined> {
    const hit = cache.get(group);
    if (!fresh && hit && now() - hit.at < freshMs) return hit.users;
    if (!client) return new Set();
    try {
      const res = await client.usergroups.users.list({ usergroup: group });
      const users = new Set(res.users ?? []);
      cache.set(group, { at: now(), users });
      return users;
    } catch (err) {
      const usable = hit !== undefined && now() - hit.at < staleMs;
      logger?.warn({ err: (err as Error).message, group, lastRead: hit ? new Date(hit.at).toISOString() : undefined }, usable ? 'could not read a user group; using the members read last' : 'could not read a user group; its members cannot approve until it can');
      return usable ? hit.users : undefined;
    }
  }

  const unreadable = (groups: string[]) =>
    `Slack could not tell the members of ${groups.map(groupMention).join(', ')}, and no list of them read within the last ${minutesText(config.approverGroupStaleMinutes)} is at hand, so its members cannot act as approvers until Slack answers again. Try again shortly, or ask an approver named by id.`;

  async function check(user: string, cluster: string, fresh = false): Promise<ApproverCheck> {
    const rules = approvalRules(config, cluster);
    if (rules.approvers.includes(user)) return { approver: true };
    const unread: string[] = [];
    for (const g of rules.approverGroups) {
      const users = await members(g, fresh);
      if (users?.has(user)) return { approver: true };
      if (!users) unread.push(g);
    }
    return unread.length > 0 ? { approver: false, note: unreadable(unread) } : { approver: false };
  }

  return {
    async refusal(user, plan, requestedBy) {
      const rules = approvalRules(config, plan.cluster);
      if (plan.approval === 'none') return undefined;
      if (rules.approvers.length === 0 && rules.approverGroups.length === 0) {
        return `No approvers are configured for cluster \`${plan.cluster}\` (PLATFORM_MEDIC_APPROVERS, or the cluster's approval.approvers), so nobody can approve this.`;
      }
      const checked = await check(user, plan.cluster, true);
      if (!checked.approver) {
        const who = [...rules.approvers.map(mention), ...rules.approverGroups.map(groupMention)].join(', ');
        return `Only the approvers of cluster \`${plan.cluster}\` can approve this: ${who}.${checked.note ? ` ${checked.note}` : ''}`;
      }
      if (plan.approval === 'second-person' && rules.twoPersonRule && user === requestedBy) {
        return 'This plan has destructive steps: it needs an approver other than the person who asked (two-person rule).';
      }
      return undefined;
    },
    check: (user, cluster) => check(user, cluster),
  };
}
