import type { AuditRecord } from '../../jobs/audit.js';
import { context, esc, limits, section, when, who, type Block } from './kit.js';

/**
 * The newest records of the audit trail, newest first, within Slack's limits; `clusters` names the
 * clusters the reader approves on when that is not every cluster.
 */
export function auditBlocks(records: readonly AuditRecord[], clusters?: readonly string[]): Block[] {
  const of = clusters ? ` of ${clusters.map((c) => `\`${c}\``).join(', ')}` : '';
  if (records.length === 0) return [section(`The audit trail${of} is empty.`)];
  const lines = records.map((r) => {
    const what = [r.entryId && `\`${r.entryId}\``, r.cluster && `on \`${r.cluster}\``, r.requestId && `(${r.requestId})`].filter(Boolean).join(' ');
    return `${when(r.at)} · ${who(r.who)} · *${r.action}* ${what}${r.detail ? ` — ${esc(r.detail.slice(0, 200))}` : ''}`;
  });
  // One section holds 3000 characters: the records fill as many sections as they need, within the 50 blocks of a message.
  const sections: Block[] = [];
  let chunk: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > limits.sectionText && chunk.length > 0) {
      sections.push(section(chunk.join('\n')));
      chunk = [];
      size = 0;
    }
    chunk.push(line.slice(0, limits.sectionText));
    size += line.length + 1;
  }
  if (chunk.length > 0) sections.push(section(chunk.join('\n')));
  const scope = clusters ? ' You see the clusters you approve on.' : '';
  return [section(`*Audit trail*${of} (newest ${records.length})`), ...sections.slice(0, 45), context(`Kept for the configured retention; only approvers can read it.${scope}`)];
}
