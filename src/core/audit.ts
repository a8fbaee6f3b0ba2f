import type { Config } from '../config.js';
import type { AuditRecord } from '../jobs/audit.js';
import type { RemedyCoordinator } from '../jobs/lifecycle/coordinator.js';
import { code, joined, lines, note, para, person, says, strong, t, type Inline, type View } from './view.js';

/** The queue side's part of `audit`, as the core uses it (the coordinator's public methods). */
export type AuditDesk = Pick<RemedyCoordinator, 'approvableClusters' | 'audit'>;

/** `2026-11-21 13:04 UTC` */
const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function recordLine(r: AuditRecord): Inline {
  const what = joined([r.entryId ? [code(r.entryId)] : [], r.cluster ? t`on ${code(r.cluster)}` : [], r.requestId ? [`(${r.requestId})`] : []].filter((p) => p.length > 0), ' ');
  return t`${when(r.at)} · ${person(r.who)} · ${strong(r.action)} ${what}${r.detail ? ` — ${r.detail.slice(0, 200)}` : ''}`;
}

/**
 * The newest records of the audit trail, newest first; `clusters` names the clusters the reader
 * approves on when that is not every cluster.
 */
export function auditView(records: readonly AuditRecord[], clusters?: readonly string[]): View {
  const of = clusters ? t` of ${joined(clusters.map((c) => [code(c)]), ', ')}` : [];
  if (records.length === 0) return says(t`The audit trail${of} is empty.`);
  const scope = clusters ? ' You see the clusters you approve on.' : '';
  return {
    summary: t`Audit trail (newest ${records.length})`,
    parts: [
      para(t`${strong('Audit trail')}${of} (newest ${records.length})`),
      // A Slack message holds 50 blocks: the records fill at most 45 sections.
      lines(records.map(recordLine), 45),
      note(t`Kept for the configured retention; only approvers can read it.${scope}`),
    ],
  };
}

/** `audit [n]`: each approver reads the records of the clusters they approve on, and no other cluster's. */
export async function auditAnswer(desk: AuditDesk, config: Config, user: string, count: number): Promise<View> {
  const scope = await desk.approvableClusters(user);
  if (scope.clusters.length === 0) return says(t`Only approvers can read the audit trail.${scope.note ? ` ${scope.note}` : ''}`);
  const names = config.clusters.map((c) => c.name);
  const every = scope.clusters.length === names.length;
  // Records of no configured cluster (an unknown entry or cluster asked for) are for those who approve everywhere.
  const records = await desk.audit.latest(count, (r) => (r.cluster && names.includes(r.cluster) ? scope.clusters.includes(r.cluster) : every));
  const view = auditView(records, every ? undefined : scope.clusters);
  return { ...view, summary: t`Audit trail (newest ${records.length})` };
}
