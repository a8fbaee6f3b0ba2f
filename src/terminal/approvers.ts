import type { ApprovalPolicy } from '../jobs/lifecycle/coordinator.js';

/** A name as people are told apart: case, the `terminal:` prefix and punctuation do not make another person. */
const personKey = (name: string): string => name.toLowerCase().replace(/^terminal:/, '').replace(/[^a-z0-9]/g, '');

/** Words that answer a prompt: typed at "the second approver types their name", they are a habit, not a name. */
const answerWords = new Set(['a', 'approve', 'y', 'yes', 'd', 'deny', 'n', 'no', 'p', 'plan', 's', 'stop', 'ok']);

/**
 * A second approver's name as the audit trail records it (`terminal:bob`), or undefined when it is no
 * second person: empty, one letter or an answer word, or any spelling of the person who asked.
 */
export function secondApprover(user: string, typed: string): string | undefined {
  const clean = typed.trim().replace(/^terminal:/i, '').replace(/[^A-Za-z0-9._ -]/g, '').slice(0, 40).trim();
  if (clean.length < 2 || answerWords.has(clean.toLowerCase())) return undefined;
  if (personKey(clean) === '' || personKey(clean) === personKey(user)) return undefined;
  return `terminal:${clean}`;
}

/**
 * At a terminal the local operator approves restarts; a destructive plan, under the two-person rule,
 * is approved by a second person at the same terminal, who gives their name (the audit trail keeps
 * it). The terminal cannot check who types; Slack can, and is where the rule is enforced for real.
 */
export function terminalPolicy(user: string, twoPersonRule: (cluster: string) => boolean): ApprovalPolicy {
  return {
    async refusal(who, plan) {
      const second = plan.approval === 'second-person' && twoPersonRule(plan.cluster);
      if (second) return who.startsWith('terminal:') && personKey(who) !== personKey(user) ? undefined : 'Destructive steps need a second person: the second approver types their name at the prompt.';
      return who === user ? undefined : 'Only the person at this terminal can approve here.';
    },
    async check(who) {
      return { approver: who === user };
    },
  };
}
