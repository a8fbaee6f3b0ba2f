import { Redis } from 'ioredis';
import type { RemedyRequest } from '../jobs/requests.js';
import { abandonedSessions, discardSession, holdSession, type AbandonedSession } from '../jobs/session-lease.js';

/** Where a remedy stood when its session ended, in a sentence's words. */
const where: Partial<Record<RemedyRequest['status'], string>> = {
  planning: 'while it was being planned',
  'awaiting-approval': 'while it waited for approval',
  running: 'while it ran',
  waiting: 'during a wait of the guide',
  'awaiting-decision': 'while it waited for an answer',
};

/** What the next session says about one that ended without quitting. */
export function abandonedText(s: AbandonedSession): string {
  const who = s.owner ? ` (process ${s.owner.pid}, started ${s.owner.startedAt.slice(11, 16)} UTC)` : '';
  const head = `An earlier terminal session${who} ended without quitting.`;
  if (s.open.length === 0) return `${head} None of its remedies was interrupted.`;
  return [
    head,
    ...s.open.map((r) => `Its remedy ${r.entryId} (${r.id}) was interrupted ${where[r.status] ?? `(${r.status})`}; nothing more of it will run, and steps already done stay done. Type "fix ${r.entryId}" to plan it again.`),
  ].join(' ');
}

/** A terminal session's place in Redis: its own prefix, held while it runs and removed when it ends. */
export interface TerminalRedisSession {
  /** What earlier sessions left, one paragraph each, already cleaned up. */
  readonly earlier: string[];
  /** Removes the session's keys; false when Redis could not be told (it is away: the keys expire by themselves). */
  close(): Promise<boolean>;
}

/**
 * Takes the session's prefix, and first finds the sessions under the same base prefix that were
 * killed (or crashed) without cleaning up: says what each left unfinished, then removes its keys.
 */
export async function openTerminalRedis(url: string, base: string, prefix: string, renewMs?: number): Promise<TerminalRedisSession> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  const earlier: string[] = [];
  for (const s of await abandonedSessions(redis, base, prefix)) {
    earlier.push(abandonedText(s));
    await discardSession(redis, base, s.prefix);
  }
  const lease = await holdSession(redis, base, prefix, renewMs);
  return {
    earlier,
    async close() {
      try {
        // Not queued for a Redis that is away: a reconnection that never comes would hold the session open.
        if (redis.status !== 'ready') return false;
        await lease.release();
        return true;
      } catch {
        return false;
      } finally {
        redis.disconnect();
      }
    },
  };
}
