/** What Slack answers when the bot may not post in a channel: an invitation, or another channel, is what helps. */
const notPostableHere = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action', 'restricted_action_read_only_channel', 'restricted_action_thread_only_channel']);

/** What a person is told where the bot may not post: the invitation, then what to do after it. */
export const inviteFirst = (then: string): string => `I cannot post in this channel. Invite me first (\`/invite @platform-medic\`), ${then}`;

/** The error Slack's Web API answered a call with (`internal_error`), or undefined when Slack gave none (no answer, a bug). */
export function slackRefusal(err: unknown): string | undefined {
  const refused = (err as { data?: { error?: unknown } } | undefined)?.data?.error;
  return typeof refused === 'string' ? refused.slice(0, 60) : undefined;
}

/**
 * Whether a failed post means the bot may not post in that channel, so that only an invitation helps; any
 * other failure (`internal_error`, no answer) is a moment of Slack's or ours, which trying again gets past.
 */
export function cannotPostHere(err: unknown): boolean {
  const refused = slackRefusal(err);
  return refused !== undefined && notPostableHere.has(refused);
}
