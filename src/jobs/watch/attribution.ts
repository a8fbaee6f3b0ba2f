import type { AuditTrail } from '../audit.js';
import type { RequestStore } from '../requests.js';
import type { ClearedBy } from './reporter.js';

/** A remedy's outcome that counts as having worked: its last stage ran through, or the person said it resolved. */
const worked = /^(completed|resolved)\b/;

/**
 * The newest remedy of ours for an entry on a cluster that worked and finished at or after `sinceMs`:
 * what a clearing is credited to. The audit trail knows each remedy's outcome; the request store who asked.
 */
export async function remedyThatCleared(audit: AuditTrail, store: RequestStore, cluster: string, entryId: string, sinceMs: number): Promise<ClearedBy | undefined> {
  const [outcome] = await audit.latest(1, (r) => r.action === 'outcome' && r.cluster === cluster && r.entryId === entryId && worked.test(r.detail ?? '') && Date.parse(r.at) >= sinceMs);
  if (!outcome?.requestId) return undefined;
  const request = await store.get(outcome.requestId);
  const [asked] = request ? [] : await audit.latest(1, (r) => r.action === 'requested' && r.requestId === outcome.requestId);
  const requestedBy = request?.requestedBy ?? asked?.who;
  return requestedBy ? { requestId: outcome.requestId, requestedBy } : undefined;
}

/** A request's ends that withdraw its requester's say over the symptom: it was cancelled, denied, or left to expire. */
const withdrawn = new Set(['cancelled', 'denied', 'expired']);

/**
 * Whether `user` asked for a fix of the entry on the cluster at or after `sinceMs` (since the symptom
 * was seen) and that request still stands: open, approved, or run. Typing `fix` and cancelling it (or
 * having it denied) gives nobody a say over the channel's symptoms.
 */
export async function askedToFix(audit: AuditTrail, cluster: string, entryId: string, user: string, sinceMs: number): Promise<boolean> {
  const asked = await audit.latest(20, (r) => r.action === 'requested' && r.cluster === cluster && r.entryId === entryId && r.who === user && Date.parse(r.at) >= sinceMs);
  const ids = new Set(asked.map((r) => r.requestId).filter((id): id is string => id !== undefined));
  if (ids.size === 0) return false;
  const ended = await audit.latest(ids.size, (r) => withdrawn.has(r.action) && r.requestId !== undefined && ids.has(r.requestId));
  const gone = new Set(ended.map((r) => r.requestId));
  return [...ids].some((id) => !gone.has(id));
}
