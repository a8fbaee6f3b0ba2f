import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { approvalRules, type Config } from '../config.js';
import type { Plan } from './plan.js';

/** Who may approve: returns a refusal to show the person, or undefined when they may. */
export interface ApprovalPolicy {
  refusal(user: string, plan: Plan, requestedBy: string): Promise<string | undefined>;
  /** Whether the person may read the audit trail and cancel others' remedies: an approver somewhere. */
  isApprover(user: string, cluster?: string): Promise<boolean>;
}

const mention = (u: string) => `<@${u}>`;
const groupMention = (g: string) => `<!subteam^${g}>`;

/** How long a user group's members are trusted before asking Slack again. */
const groupCacheMs = 5 * 60 * 1000;

/**
 * The approval policy of the configuration: per cluster, approvers by user id and by user group (the
 * groups resolved through the Web API and cached), and the two-person rule for destructive steps.
 */
export function configuredApprovers(config: Config, client?: webApi.WebClient, logger?: Logger): ApprovalPolicy {
  const cache = new Map<string, { at: number; users: Set<string> }>();

  async function members(group: string): Promise<Set<string>> {
    const hit = cache.get(group);
    if (hit && Date.now() - hit.at < groupCacheMs) return hit.users;
    if (!client) return new Set();
    try {
      const res = await client.usergroups.users.list({ usergroup: group });
      const users = new Set(res.users ?? []);
      cache.set(group, { at: Date.now(), users });
      return users;
    } catch (err) {
      logger?.warn({ err: (err as Error).message, group }, 'could not read a user group; its members cannot approve until it can');
      return hit?.users ?? new Set();
    }
  }

  async function approves(user: string, cluster: string): Promise<boolean> {
    const rules = approvalRules(config, cluster);
    if (rules.approvers.includes(user)) return true;
    for (const g of rules.approverGroups) if ((await members(g)).has(user)) return true;
    return false;
  }

  return {
    async refusal(user, plan, requestedBy) {
      const rules = approvalRules(config, plan.cluster);
      if (plan.approval === 'none') return undefined;
      if (rules.approvers.length === 0 && rules.approverGroups.length === 0) {
        return `No approvers are configured for cluster \`${plan.cluster}\` (PLATFORM_MEDIC_APPROVERS, or the cluster's approval.approvers), so nobody can approve this.`;
      }
      if (!(await approves(user, plan.cluster))) {
        const who = [...rules.approvers.map(mention), ...rules.approverGroups.map(groupMention)].join(', ');
        return `Only the approvers of cluster \`${plan.cluster}\` can approve this: ${who}.`;
      }
      if (plan.approval === 'second-person' && rules.twoPersonRule && user === requestedBy) {
        return 'This plan has destructive steps: it needs an approver other than the person who asked (two-person rule).';
      }
      return undefined;
    },
    async isApprover(user, cluster) {
      const clusters = cluster ? [cluster] : config.clusters.map((c) => c.name);
      for (const c of clusters) if (await approves(user, c)) return true;
      return false;
    },
  };
}
